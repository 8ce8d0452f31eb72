/**
 * Where an MCP App's view stands in the console, in each display mode the MCP Apps spec names:
 * inline in its App slot; fullscreen as an overlay over the whole page (left with Escape, while
 * the focus is on the console's side, or its "Exit fullscreen" button); picture-in-picture as a
 * floating panel in a corner of the page, which stays while the person works in other tabs and
 * calls other tools. Under the view, "From the view" lists the messages the view sent
 * (`ui/message`: the console has no conversation, so it shows them) and the model context it set
 * last (`ui/update-model-context`, replaced on each update); "Tools of this view" lists the tools
 * a view offers the host, to call from a form (`ViewTools.tsx`).
 *
 * The stage is a plain element, not a Preact one: picture-in-picture moves it from the slot to the
 * page's body with `moveBefore()`, which keeps the view's frames alive (moving a frame any other
 * way reloads it, and the view with it); a browser without `moveBefore()` is not offered
 * picture-in-picture. Only one view floats at a time.
 * @module
 */
import type { AppHandle, DisplayMode } from '@mcpkit/apps/bridge';
import { render } from 'preact';
import { Content } from './Content.js';
import { JsonView } from './common.js';
import { ViewTools } from './ViewTools.js';

/**
 * A message the view sent with `ui/message`.
 *
 * @example
 * ```ts
 * const message: ViewMessage = { role: 'user', content: [{ type: 'text', text: 'Book it' }] };
 * ```
 */
export interface ViewMessage {
  role: string;
  content: unknown[];
}

/**
 * What the view set with `ui/update-model-context`.
 *
 * @example
 * ```ts
 * const context: ModelContext = { structuredContent: { selected: 'row 3' } };
 * ```
 */
export interface ModelContext {
  content?: unknown[];
  structuredContent?: Record<string, unknown>;
}

/** Messages kept per view; older ones drop off. */
const MAX_MESSAGES = 50;

const LABELS: Record<DisplayMode, string> = {
  inline: 'Inline',
  fullscreen: 'Fullscreen',
  pip: 'Picture-in-picture',
};

type Movable = Element & { moveBefore?(node: Node, child: Node | null): void };

/** Whether this browser moves an element without reloading the frames in it. */
const canFloat = typeof (Element.prototype as Movable).moveBefore === 'function';

/** The stage floating in picture-in-picture, if any. */
let floating: AppStage | undefined;

/**
 * One view's stage.
 *
 * @example
 * ```ts
 * declare const slot: HTMLElement;
 * const stage = new AppStage(slot);
 * const app = await mount(stage.frameBox, { …, displayModes: stage.modes, callbacks: { requestDisplayMode: (mode) => stage.present(mode) } });
 * stage.attach(app);
 * ```
 */
export class AppStage {
  /** The display modes the console offers a view. */
  readonly modes: DisplayMode[] = canFloat ? ['inline', 'fullscreen', 'pip'] : ['inline', 'fullscreen'];
  readonly element = document.createElement('div');
  /** Where the bridge mounts the view's frame. */
  readonly frameBox = document.createElement('div');
  readonly #bar = document.createElement('div');
  readonly #notes = document.createElement('div');
  readonly #tools = document.createElement('div');
  /** Bumped when the view says its tools changed: they are listed again. */
  #toolsVersion = 0;
  /** Said in the slot while the view floats elsewhere. */
  readonly #away = document.createElement('p');
  #mode: DisplayMode = 'inline';
  /** Whether the App slot the view came from is still on the page. */
  #docked = true;
  #handle: AppHandle | undefined;
  #messages: ViewMessage[] = [];
  /** What fullscreen made inert: everything beside the stage but dialogs (a question still gets answered). */
  #inert: Element[] = [];
  #context: ModelContext | undefined;

  constructor(readonly slot: HTMLElement) {
    this.element.className = 'app-stage';
    this.#bar.className = 'app-bar';
    this.frameBox.className = 'app-frame';
    this.#notes.className = 'app-notes';
    this.#away.className = 'muted';
    this.element.append(this.#bar, this.frameBox, this.#tools, this.#notes);
    slot.append(this.element);
  }

  /** The mounted view: its mode buttons show from now on. */
  attach(handle: AppHandle): void {
    this.#handle = handle;
    this.#render();
  }

  /** Draws the buttons and the notes again (after the view's `ui/initialize`, say). */
  refresh(): void {
    this.#render();
  }

  /**
   * Lays the view out in `mode` and returns the mode it is in now: a mode that cannot be given
   * (picture-in-picture while another view floats, inline once the slot is gone) keeps the current one.
   */
  present(mode: DisplayMode): DisplayMode {
    if (mode === this.#mode) return mode;
    if (mode === 'pip' && (!canFloat || (floating !== undefined && floating !== this))) return this.#mode;
    if (mode === 'inline' && !this.#docked) return this.#mode;
    const was = this.#mode;
    this.#mode = mode;
    if (was === 'fullscreen') this.#modal(false);
    if (was === 'pip') floating = undefined;
    if (mode === 'pip') {
      floating = this;
      this.#away.textContent = 'This App is shown in picture-in-picture.';
      this.slot.append(this.#away);
      this.#place(document.body);
    } else if (mode === 'inline') {
      this.#away.remove();
      this.#place(this.slot);
    }
    this.element.className = mode === 'inline' ? 'app-stage' : `app-stage ${mode}`;
    // Outside inline the notes scroll in a box of their own, reachable by keyboard.
    if (mode === 'inline') this.#notes.removeAttribute('tabindex');
    else this.#notes.tabIndex = 0;
    if (mode === 'fullscreen') this.#modal(true);
    this.#render();
    // Into fullscreen, the focus goes to its way out (so Escape works at once); out of it, back to the bar.
    if (mode === 'fullscreen' || was === 'fullscreen') this.#bar.querySelector('button')?.focus();
    return mode;
  }

  /** Escape leaves fullscreen (not while a dialog is open over it: Escape answers that dialog). */
  handleEvent(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || (event.target as Element | null)?.closest?.('dialog')) return;
    event.preventDefault();
    this.#switch(this.#docked ? 'inline' : 'pip');
  }

  /** The view's tools changed (`notifications/tools/list_changed`): list them again. */
  toolsChanged(): void {
    this.#toolsVersion++;
    this.#render();
  }

  /** `ui/message`: listed under the view (the newest last). */
  addMessage(message: ViewMessage): void {
    this.#messages = [...this.#messages.slice(-(MAX_MESSAGES - 1)), message];
    this.#render();
  }

  /** `ui/update-model-context`: replaces what the view set before. */
  setContext(context: ModelContext): void {
    this.#context = context;
    this.#render();
  }

  /**
   * The App slot is going. Returns whether the view lives on: a floating one stays, without its
   * slot (it can no longer go back inline; the person closes it); any other goes with the slot.
   */
  slotGone(): boolean {
    this.#docked = false;
    this.#away.remove();
    if (this.#mode === 'pip') {
      this.#handle?.setHostContext({ availableDisplayModes: this.modes.filter((mode) => mode !== 'inline') });
      this.#render();
      return true;
    }
    this.#leave();
    return false;
  }

  /** The person's own switch: lay the view out, then tell the bridge (which tells the view). */
  #switch(mode: DisplayMode): void {
    if (!this.#handle?.canDisplay(mode)) return;
    this.#handle.setDisplayMode(this.present(mode));
  }

  /** Closes the view (`ui/resource-teardown`, then its frame goes) and the stage. */
  async #close(): Promise<void> {
    this.#away.textContent = 'The App was closed.';
    this.#leave();
    await this.#handle?.teardown('The person closed the view');
    this.element.remove();
  }

  #leave(): void {
    this.#modal(false);
    if (floating === this) floating = undefined;
  }

  /** Fullscreen is modal: Escape is listened for, the page beside the stage is inert. */
  #modal(on: boolean): void {
    for (const element of this.#inert) element.removeAttribute('inert');
    this.#inert = [];
    if (!on) {
      document.removeEventListener('keydown', this);
      this.element.removeAttribute('role');
      this.element.removeAttribute('aria-modal');
      return;
    }
    document.addEventListener('keydown', this);
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-modal', 'true');
    this.element.setAttribute('aria-label', 'MCP App, fullscreen');
    for (
      let node: Element = this.element;
      node !== document.body && node.parentElement;
      node = node.parentElement
    ) {
      for (const sibling of node.parentElement.children) {
        if (sibling === node || sibling.tagName === 'DIALOG' || sibling.hasAttribute('inert')) continue;
        sibling.setAttribute('inert', '');
        this.#inert.push(sibling);
      }
    }
  }

  #place(parent: Element): void {
    if (this.element.parentElement !== parent) (parent as Movable).moveBefore?.(this.element, null);
  }

  #render(): void {
    const handle = this.#handle;
    const mode = this.#mode;
    const offered = (next: DisplayMode) =>
      next !== mode &&
      handle?.canDisplay(next) === true &&
      (next !== 'inline' || this.#docked) &&
      (next !== 'pip' || (canFloat && floating === undefined));
    render(
      <>
        {mode === 'inline' ? null : <span class="muted">{LABELS[mode]}</span>}
        {mode === 'fullscreen' ? (
          <button
            type="button"
            class="exit"
            aria-keyshortcuts="Escape"
            onClick={() => this.#switch(this.#docked ? 'inline' : 'pip')}
          >
            Exit fullscreen
          </button>
        ) : (
          (['inline', 'fullscreen', 'pip'] as const).filter(offered).map((next) => (
            <button key={next} type="button" onClick={() => this.#switch(next)}>
              {next === 'inline' ? 'Back inline' : LABELS[next]}
            </button>
          ))
        )}
        {mode === 'pip' && handle ? (
          <button type="button" onClick={() => void this.#close()}>
            Close
          </button>
        ) : null}
      </>,
      this.#bar,
    );
    render(
      handle?.offersTools ? <ViewTools handle={handle} version={this.#toolsVersion} /> : null,
      this.#tools,
    );
    render(<FromTheView messages={this.#messages} context={this.#context} />, this.#notes);
  }
}

/** What the view sent: its messages and the model context it set. */
function FromTheView(props: { messages: readonly ViewMessage[]; context: ModelContext | undefined }) {
  const { messages, context } = props;
  if (messages.length === 0 && !context) return null;
  return (
    <section class="from-view" aria-label="From the view">
      <h4>From the view</h4>
      {messages.length > 0 ? (
        <ol class="view-messages" aria-label="Messages">
          {messages.map((message, index) => (
            <li key={index} class="message">
              <span class="role">{message.role}</span>
              <Content blocks={message.content as Record<string, unknown>[]} />
            </li>
          ))}
        </ol>
      ) : null}
      {context ? (
        <section class="model-context" aria-label="Model context">
          <span class="role">Model context (the latest)</span>
          {context.content ? <Content blocks={context.content as Record<string, unknown>[]} /> : null}
          {context.structuredContent ? <JsonView value={context.structuredContent} /> : null}
        </section>
      ) : null}
    </section>
  );
}
