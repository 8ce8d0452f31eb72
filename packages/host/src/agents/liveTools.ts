/**
 * The host's tool catalogue kept current for an agent: listed once, then listed again whenever a
 * server says its tools changed (or restarted), each framework adapter turning every entry into
 * its own kind of tool. Framework-free: the adapters (`@mcpkit/host/ai-sdk`, `/langchain`) plug
 * in a converter.
 * @module
 */
import type { Tool } from '@mcpkit/core';
import type { HostEntry } from '../catalogue/catalogue.js';
import type { ToolSource } from './toolHost.js';

/**
 * A catalogue of converted tools that follows `list_changed`. A change starts a new listing at
 * once; {@link settled} waits for it, so an agent loop that awaits it before each step sends the
 * model the tools as they are now. Listings never overlap: changes during one make one more.
 *
 * @example
 * ```ts
 * const live = await LiveTools.open(host, (entry) => entry.name);
 * await live.settled();
 * console.log([...live.current().keys()]);
 * live.close();
 * ```
 */
export class LiveTools<T> {
  private tools: ReadonlyMap<string, T> = new Map();
  private pending: Promise<void> = Promise.resolve();
  private again = false;
  private running = false;
  private stop: (() => void) | undefined;

  private constructor(
    private readonly source: ToolSource,
    private readonly convert: (entry: HostEntry<Tool>) => T,
    private readonly onUpdate: (tools: ReadonlyMap<string, T>) => void,
  ) {}

  /**
   * Lists the host's tools, converts each, and starts following changes.
   *
   * @param onUpdate called with the new tools after each listing (the first included).
   */
  static async open<T>(
    source: ToolSource,
    convert: (entry: HostEntry<Tool>) => T,
    onUpdate: (tools: ReadonlyMap<string, T>) => void = () => {},
  ): Promise<LiveTools<T>> {
    const live = new LiveTools(source, convert, onUpdate);
    await live.refresh();
    live.stop = source.onListChanged((change) => {
      if (change.kind === 'tools') void live.refresh().catch(() => undefined);
    });
    return live;
  }

  /** The tools of the last listing, by catalogue name. */
  current(): ReadonlyMap<string, T> {
    return this.tools;
  }

  /** Resolves once no listing is running or due (a failed listing keeps the previous tools). */
  async settled(): Promise<void> {
    while (this.running) await this.pending.catch(() => undefined);
  }

  /**
   * Lists the tools again now (a listing already running is followed by one more).
   *
   * @throws what the host's listing throws (a closed host, a name collision with namespacing off).
   */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.pending;
    }
    this.running = true;
    this.pending = this.list().finally(() => {
      this.running = false;
    });
    return this.pending;
  }

  /** Stops following changes; the current tools stay usable. */
  close(): void {
    this.stop?.();
    this.stop = undefined;
  }

  private async list(): Promise<void> {
    do {
      this.again = false;
      const entries = await this.source.tools();
      this.tools = new Map(entries.map((entry) => [entry.name, this.convert(entry)]));
      this.onUpdate(this.tools);
    } while (this.again);
  }
}
