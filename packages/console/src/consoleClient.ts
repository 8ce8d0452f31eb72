/**
 * The clients the console makes: introduced as the console, with the server's sampling and
 * elicitation asked of the person on the page.
 * @module
 */
import { McpClient } from '@mcpkit/client';
import { elicit, sample } from './answers.js';
import type { PinnedEra } from './backend.js';
import type { Questions } from './questions.js';

/** How the console introduces itself to servers. */
export const CONSOLE_INFO = { name: 'mcpkit-console', title: 'mcpkit console', version: '0.1.0' } as const;

/**
 * A client as the console makes them: the server's sampling and elicitation asked of the person.
 *
 * @example
 * ```ts
 * const client = consoleClient('2025', questions);
 * ```
 */
export function consoleClient(era: PinnedEra, questions: Questions): McpClient {
  return new McpClient(CONSOLE_INFO, {
    sampling: (params, ctx) => sample(questions, params, ctx.signal),
    elicitation: {
      form: (params, ctx) => elicit(questions, 'elicitation', params, ctx.signal),
      url: (params, ctx) => elicit(questions, 'elicitationUrl', params, ctx.signal),
    },
    // The page checks structured output itself, so a mismatch is shown beside the result.
    validateStructuredContent: false,
    protocolEra: era,
  });
}
