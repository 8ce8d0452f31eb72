/**
 * Changes to the lists of tools, resources and prompts: the handles registered items share
 * (enable, disable, remove, atomic updates), and debounced
 * `notifications/{tools,resources,prompts}/list_changed`.
 *
 * Registering ten tools in a loop, or toggling a feature flag that enables a handful, is one change
 * from a client's point of view: it should cost one notification and one re-fetch per session, not
 * ten. Changes are collected for a short window (default 10 ms) and flushed together.
 * @module
 */

import { Notification } from '@mcpkit/core';
import type { ServerSession } from './kernel/session.js';
import type { PagedCollection, PagedItem } from './pagination.js';

/**
 * The lists whose changes are announced.
 *
 * @example
 * ```ts
 * const kind: ListKind = 'tools';
 * ```
 */
export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * The notification announcing a change of each list.
 *
 * @example
 * ```ts
 * LIST_CHANGED_NOTIFICATION.tools; // 'notifications/tools/list_changed'
 * ```
 */
export const LIST_CHANGED_NOTIFICATION: Readonly<Record<ListKind, string>> = {
  tools: Notification.ToolsListChanged,
  resources: Notification.ResourcesListChanged,
  prompts: Notification.PromptsListChanged,
};

/** What the announcer needs of its server (`Server` is one): whether anyone could hear, and the broadcast. */
interface AnnouncingServer {
  readonly relay: unknown;
  readonly sessions: { readonly size: number };
  broadcast(
    method: string,
    params: undefined,
    filter: (session: ServerSession) => boolean,
    scope: { readonly listChanged: ListKind },
  ): void;
}

/**
 * Announces list changes to each session that was told at initialization that the list can
 * change (`listChanged` in the capabilities it received), debounced: the changes of one window are
 * announced together, once per kind, when the window closes.
 *
 * @throws {RangeError} when `debounceMs` is negative or not a number.
 * @example
 * ```ts
 * const announcer = new ListChangeAnnouncer(server, 10);
 * announcer.changed('tools');
 * announcer.changed('tools'); // still one announcement, ~10 ms later
 * ```
 */
export class ListChangeAnnouncer {
  readonly #server: AnnouncingServer;
  readonly #debounceMs: number;
  readonly #pending = new Set<ListKind>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(server: AnnouncingServer, debounceMs: number) {
    if (!Number.isFinite(debounceMs) || debounceMs < 0) {
      throw new RangeError(`listChangedDebounceMs must be a non-negative number (got ${debounceMs})`);
    }
    this.#server = server;
    this.#debounceMs = debounceMs;
  }

  /** Records a change of `kind`, if any session could hear of it (on any node, in a cluster). */
  changed(kind: ListKind): void {
    if (!this.#server.relay && !this.#server.sessions.size) return;
    this.#pending.add(kind);
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#announce(), this.#debounceMs);
    // A pending announcement must not keep a process alive that has nothing else to do.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Drops what is pending (the server is closing). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  #announce(): void {
    this.#timer = undefined;
    const kinds = [...this.#pending];
    this.#pending.clear();
    for (const kind of kinds) {
      this.#server.broadcast(
        LIST_CHANGED_NOTIFICATION[kind],
        undefined,
        (session) => {
          // Only the lists the session was told (at initialize) can change.
          const told = session.serverCapabilities?.[kind] as { listChanged?: boolean } | undefined;
          return told?.listChanged === true;
        },
        { listChanged: kind },
      );
    }
  }
}

/**
 * The list a registered item belongs to: its collection and how to announce a change.
 *
 * @example
 * ```ts
 * const list: ItemList = { kind: 'tool', items: new PagedCollection('t'), changed: () => notifier.changed('tools') };
 * ```
 */
export interface ItemList {
  /** What the items are called in messages: `tool`, `prompt`, `resource`... */
  readonly kind: string;
  readonly items: PagedCollection<ListedItem>;
  changed(item: ListedItem): void;
}

/**
 * What every registered item's state holds besides what its requests read: the definition its
 * list shows and the config the state was built from (updates merge into it).
 *
 * @example
 * ```ts
 * const state: ItemState = { definition: { name: 'echo', inputSchema: { type: 'object' } }, config: {} };
 * ```
 */
export interface ItemState {
  readonly definition: object;
  readonly config: object;
}

/**
 * The handle of a registered tool, resource, template or prompt: enable, disable, remove. Each
 * change reaches every initialized session as one debounced `list_changed` notification.
 *
 * Subclasses keep everything a request reads in one immutable `state`, replaced whole by updates.
 *
 * @example
 * ```ts
 * const item = server.prompt('greet', {}, () => 'Hello');
 * item.disable();
 * item.enable();
 * item.remove();
 * ```
 */
export abstract class ListedItem<State extends ItemState = ItemState> implements PagedItem {
  /** Registration order, set by the collection (list paging reads it). */
  seq = 0;
  #isEnabled = true;

  readonly #list: ItemList;
  readonly #keyField: 'name' | 'uri' | 'uriTemplate';
  /** @internal Use the `McpServer` registration methods. */
  constructor(
    list: ItemList,
    /** @internal Everything a request reads; replaced whole by updates. */
    public state: State,
    /** The member of the definition (and of an update) that is the key: name, URI or URI template. */
    keyField: 'name' | 'uri' | 'uriTemplate',
  ) {
    this.#list = list;
    this.#keyField = keyField;
  }

  /** The key clients use (name, URI or URI template). */
  get key(): string {
    return (this.state.definition as Readonly<Record<string, string>>)[this.#keyField]!;
  }

  /** The item as its list (`tools/list`, `prompts/list`...) shows it. */
  get definition(): State['definition'] {
    return this.state.definition;
  }

  /** False after `disable()` and after `remove()`. */
  get enabled(): boolean {
    return this.#isEnabled;
  }

  /** True until `remove()` is called. */
  get registered(): boolean {
    return this.#list.items.has(this);
  }

  /** Lists the item again and serves requests for it. */
  enable(): this {
    return this.#setEnabled(true);
  }

  /** Hides the item: it leaves its list, and requests for it answer as for an unknown one. */
  disable(): this {
    return this.#setEnabled(false);
  }

  /** Unregisters the item for good (register a new one to bring it back). */
  remove(): void {
    this.#isEnabled = false;
    if (this.#list.items.delete(this)) this.#list.changed(this);
  }

  /**
   * @internal Applies an update: `changes` merge into the config (the key and `runField` members,
   * name and handler say, aside), `build` validates and compiles the new state, and only then is it
   * swapped in. A build that throws leaves the item unchanged.
   */
  protected rebuild<K extends keyof State & string>(
    changes: { readonly [P in K]?: State[P] },
    runField: K,
    build: (key: string, config: State['config'], run: State[K]) => State,
  ): this {
    const config = mergeConfig(this.state.config, changes, [this.#keyField, runField]);
    const key = (changes as Readonly<Record<string, string | undefined>>)[this.#keyField] ?? this.key;
    this.#replaceState(build(key, config, changes[runField] ?? this.state[runField]), key);
    return this;
  }

  /** Swaps in an updated state (keyed `newKey`), moving the item if its key changed. */
  #replaceState(next: State, newKey: string): void {
    const oldKey = this.key;
    const registered = this.#list.items.has(this);
    if (newKey !== oldKey && registered && this.#list.items.get(newKey)) {
      throw new TypeError(
        `Cannot rename ${this.#list.kind} "${oldKey}" to "${newKey}": that name is already registered`,
      );
    }
    this.state = next;
    if (!registered) return;
    if (newKey !== oldKey) this.#list.items.rekey(this, oldKey);
    else this.#list.items.invalidate();
    this.#list.changed(this);
  }

  #setEnabled(enabled: boolean): this {
    if (this.#isEnabled === enabled || !this.#list.items.has(this)) return this;
    this.#isEnabled = enabled;
    this.#list.items.invalidate();
    this.#list.changed(this);
    return this;
  }
}

/**
 * Merges an update into a configuration: members set to `undefined` are removed, members not
 * mentioned are kept, and the `skip` members (name, handler...) are left to the caller.
 *
 * @example
 * ```ts
 * mergeConfig({ title: 'A', description: 'B' }, { description: undefined }, []); // { title: 'A' }
 * ```
 */
export function mergeConfig<C extends object>(current: C, changes: object, skip: readonly string[]): C {
  const merged: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) {
    if (skip.includes(key)) continue;
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged as C;
}
