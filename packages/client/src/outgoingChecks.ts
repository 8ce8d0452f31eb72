/**
 * The local checks a request passes before it is sent: the method exists in the revision spoken,
 * and the server declared the capability it needs.
 * @module
 */
import { CapabilityError, Method, type ServerCapabilities, TASKS_EXTENSION } from '@mcpkit/core';
import {
  declaresTasksExtension,
  missingServerCapability,
  type RevisionCodec,
  revisionHas,
} from '@mcpkit/core/internal';
import { type ModernVersion, removedInModern } from './era/modern.js';

/** The methods of the tasks extension (2026-07-28). */
const EXTENSION_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Refuses, locally, a method the per-request revision removed (with what replaced it). */
export function refuseRemoved(version: ModernVersion, method: string): void {
  const removed = removedInModern(method);
  if (removed)
    throw new CapabilityError(`"${method}" does not exist in protocol revision ${version}: ${removed}`);
}

/**
 * Why the server cannot be sent `method` (the capability it did not declare), or `undefined`.
 * `modern` is true under 2026-07-28, where tasks are an extension declared under `extensions`.
 */
export function missingCapability(
  codec: RevisionCodec,
  modern: boolean,
  serverCapabilities: ServerCapabilities | undefined,
  method: string,
  params: Record<string, unknown> | undefined,
): string | undefined {
  // 2024-11-05 has completion/complete but no capability to announce it, so nothing to check.
  if (method === Method.CompletionComplete && !revisionHas(codec.version, 'completionsCapability')) {
    return undefined;
  }
  if (modern && EXTENSION_TASK_METHODS.has(method)) {
    return declaresTasksExtension(serverCapabilities)
      ? undefined
      : `The server did not declare the tasks extension (${TASKS_EXTENSION}), which "${method}" needs`;
  }
  return missingServerCapability(method, params, serverCapabilities);
}
