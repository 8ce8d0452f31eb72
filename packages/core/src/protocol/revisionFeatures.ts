/**
 * Which revision has which feature: the first revision of each feature the codecs adapt, and the
 * test of a revision against it.
 * @module
 */
import { type ProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './revisions.js';

/**
 * The first revision that has each feature the codecs adapt. Older revisions never see it.
 *
 * @example
 * ```ts
 * REVISION_FEATURES.structuredOutput; // '2025-06-18'
 * ```
 */
export const REVISION_FEATURES = {
  /** `AudioContent`. */
  audioContent: '2025-03-26',
  /** `Tool.annotations` (`ToolAnnotations`). */
  toolAnnotations: '2025-03-26',
  /** `notifications/progress` `message`. */
  progressMessage: '2025-03-26',
  /** The `completions` server capability. */
  completionsCapability: '2025-03-26',
  /** `title` on tools, prompts, prompt arguments, resources, templates, `Implementation`, `PromptReference`. */
  titles: '2025-06-18',
  /** `_meta` on tools, prompts, resources, templates, contents, content blocks and roots. */
  dataTypeMeta: '2025-06-18',
  /** `Tool.outputSchema` and `CallToolResult.structuredContent`. */
  structuredOutput: '2025-06-18',
  /** `resource_link` content blocks. */
  resourceLinks: '2025-06-18',
  /** `elicitation/create` and the `elicitation` client capability. */
  elicitation: '2025-06-18',
  /** `completion/complete` `context`. */
  completionContext: '2025-06-18',
  /** `Annotations.lastModified`. */
  annotationsLastModified: '2025-06-18',
  /** `icons` everywhere, and `Implementation.description`/`websiteUrl`. */
  icons: '2025-11-25',
  /** `tasks/*`, `notifications/tasks/status`, `task` params, `Tool.execution`, `tasks` capabilities. */
  tasks: '2025-11-25',
  /** URL-mode elicitation and `notifications/elicitation/complete`. */
  urlElicitation: '2025-11-25',
  /** Titled and multi-select enums, and `default` on string, number and enum elicitation fields. */
  elicitationEnums: '2025-11-25',
  /** Sampling `tools`/`toolChoice`, tool_use/tool_result blocks, content arrays, `SamplingMessage._meta`. */
  samplingTools: '2025-11-25',
  /** `sampling.context`/`sampling.tools` and `elicitation.form`/`elicitation.url` client sub-capabilities. */
  capabilitySubFlags: '2025-11-25',
  /** `notifications/cancelled` without `requestId`. */
  optionalCancelRequestId: '2025-11-25',
} as const satisfies Record<string, ProtocolVersion>;

/**
 * A feature whose presence depends on the revision.
 *
 * @example
 * ```ts
 * const feature: RevisionFeature = 'icons';
 * ```
 */
export type RevisionFeature = keyof typeof REVISION_FEATURES;

/** Which features one revision has. */
export type Has = Readonly<Record<RevisionFeature, boolean>>;

// Newest first in SUPPORTED_PROTOCOL_VERSIONS, so a larger index is an older revision.
function isAtLeast(version: ProtocolVersion, since: ProtocolVersion): boolean {
  return SUPPORTED_PROTOCOL_VERSIONS.indexOf(version) <= SUPPORTED_PROTOCOL_VERSIONS.indexOf(since);
}

/**
 * True when `version` has `feature`.
 *
 * @example
 * ```ts
 * revisionHas('2025-03-26', 'structuredOutput'); // false
 * revisionHas('2025-06-18', 'structuredOutput'); // true
 * ```
 */
export function revisionHas(version: ProtocolVersion, feature: RevisionFeature): boolean {
  return isAtLeast(version, REVISION_FEATURES[feature]);
}
