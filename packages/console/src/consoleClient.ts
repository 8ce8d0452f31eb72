/**
 * The clients the console makes: introduced as the console, with the server's sampling and
 * elicitation asked of the person on the page.
 * @module
 */
import { APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps';
import { McpClient } from '@mcpkit/client';
import type { Root } from '@mcpkit/core';
import { elicit, sample } from './answers.js';
import type { PinnedEra } from './backend.js';
import type { Questions } from './questions.js';

/** How the console introduces itself to servers. */
export const CONSOLE_INFO = { name: 'mcpkit-console', title: 'mcpkit console', version: '0.1.0' } as const;

/**
 * A client as the console makes them: the server's sampling and elicitation asked of the person,
 * its roots the ones the person chose (read when the server asks).
 *
 * @example
 * ```ts
 * declare const questions: Parameters<typeof consoleClient>[1];
 * const client = consoleClient('2025', questions, () => [{ uri: 'file:///home/me/project', name: 'project' }]);
 * ```
 */
export function consoleClient(era: PinnedEra, questions: Questions, roots: () => readonly Root[]): McpClient {
  return new McpClient(CONSOLE_INFO, {
    roots,
    sampling: (params, ctx) => sample(questions, params, ctx.signal),
    elicitation: {
      form: (params, ctx) => elicit(questions, 'elicitation', params, ctx.signal),
      url: (params, ctx) => elicit(questions, 'elicitationUrl', params, ctx.signal),
    },
    // The page checks structured output itself, so a mismatch is shown beside the result.
    validateStructuredContent: false,
    // The page renders MCP Apps (a tool's ui:// view, and the app-only tools it calls back).
    capabilities: APPS_CLIENT_CAPABILITIES,
    protocolEra: era,
  });
}
