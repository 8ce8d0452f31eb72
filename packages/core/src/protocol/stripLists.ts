/**
 * The members a revision lacks, per kind of object: what a downgrade codec strips.
 * @module
 */
import type { Has } from './revisionFeatures.js';

/** Members to drop from each kind of object, computed once per revision. */
export interface StripLists {
  readonly implementation: readonly string[];
  readonly tool: readonly string[];
  readonly prompt: readonly string[];
  /** `title` alone: prompt arguments and prompt references. */
  readonly title: readonly string[];
  readonly resource: readonly string[];
  readonly resourceLink: readonly string[];
  readonly dataTypeMeta: readonly string[];
  readonly serverCapabilities: readonly string[];
  readonly clientCapabilities: readonly string[];
  readonly taskParam: readonly string[];
}

function keysUnless(present: boolean, keys: readonly string[]): readonly string[] {
  return present ? [] : keys;
}

export function stripListsFor(has: Has): StripLists {
  const icons = keysUnless(has.icons, ['icons']);
  const title = keysUnless(has.titles, ['title']);
  const meta = keysUnless(has.dataTypeMeta, ['_meta']);
  return {
    implementation: [...keysUnless(has.icons, ['icons', 'websiteUrl', 'description']), ...title],
    tool: [
      ...icons,
      ...title,
      ...meta,
      ...keysUnless(has.tasks, ['execution']),
      ...keysUnless(has.structuredOutput, ['outputSchema']),
      ...keysUnless(has.toolAnnotations, ['annotations']),
    ],
    prompt: [...icons, ...title, ...meta],
    title,
    resource: [...icons, ...title, ...meta],
    resourceLink: icons,
    dataTypeMeta: meta,
    serverCapabilities: [
      ...keysUnless(has.tasks, ['tasks']),
      ...keysUnless(has.completionsCapability, ['completions']),
    ],
    clientCapabilities: [
      ...keysUnless(has.tasks, ['tasks']),
      ...keysUnless(has.elicitation, ['elicitation']),
    ],
    taskParam: keysUnless(has.tasks, ['task']),
  };
}
