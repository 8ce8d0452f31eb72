/**
 * Asking for consent once: decisions remembered for the session in memory, and `always`/`never`
 * through the host's store.
 * @module
 */
import type { ConsentDecision, ConsentStore } from './types.js';

/**
 * The consent memory of one host.
 *
 * @example
 * ```ts
 * const allowed = await consent.decide('tool:files:write', () => hooks.toolCall?.(request));
 * ```
 */
export class ConsentMemory {
  private readonly session = new Map<string, boolean>();

  constructor(private readonly store: ConsentStore | undefined) {}

  /**
   * True when allowed: a remembered decision, else `ask()`'s (remembered as it says). `ask`
   * returning `undefined` (no hook) denies.
   */
  async decide(
    key: string,
    ask: () => ConsentDecision | undefined | Promise<ConsentDecision | undefined>,
  ): Promise<boolean> {
    const remembered = this.session.get(key);
    if (remembered !== undefined) return remembered;
    const stored = await this.store?.get(key);
    if (stored === 'always' || stored === 'never') return stored === 'always';
    const decision = await ask();
    if (decision === 'session') this.session.set(key, true);
    if (decision === 'always' || decision === 'never') {
      if (this.store) await this.store.set(key, decision);
      else this.session.set(key, decision === 'always');
    }
    return decision === 'once' || decision === 'session' || decision === 'always';
  }
}
