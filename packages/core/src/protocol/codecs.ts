/**
 * The revision codecs: one immutable object per protocol revision that adapts messages built in
 * the 2025-11-25 shape to what a peer on an older revision understands.
 *
 * Every rule below was taken from a diff of the official schemas (`schema/<rev>/schema.ts` and
 * `schema.json`) and the revision changelogs. The codecs work copy-on-write: an input object is
 * never mutated, and only the objects on the path to a change are copied. The 2025-11-25 codec is
 * the identity and allocates nothing.
 *
 * Choices where the older revision has no equivalent:
 * - audio content (before 2025-03-26) becomes a text block that says audio was omitted, so the
 *   content list keeps its length and order and the reader learns something was there;
 * - a `resource_link` (before 2025-06-18) becomes a text block naming the resource and its URI (an
 *   embedded resource would need contents we do not have);
 * - `structuredContent` (before 2025-06-18) is dropped, and its JSON is appended as a text block
 *   unless a text block already carries it;
 * - sampling `tool_use`/`tool_result` blocks (before 2025-11-25) become text; a sampling message
 *   with several blocks is split into consecutive messages of the same role;
 * - `task` augmentation (before 2025-11-25) is dropped: the spec tells a receiver without task
 *   support to ignore it and run the request normally, which is what the older peer will do;
 * - an elicitation the revision cannot express (URL mode, multi-select enums) is not sent at all.
 * @module
 */
import type { RevisionCodec, WireParams } from './codec.js';
import { describeJson } from './copyOnWrite.js';
import { DowngradeCodec } from './downgradeCodec.js';
import type { ProtocolVersion } from './revisions.js';

export { REVISION_FEATURES, type RevisionFeature, revisionHas } from './revisionFeatures.js';

const identityCodec: RevisionCodec = Object.freeze({
  version: '2025-11-25' as const,
  acceptsBatches: false,
  encodeResult: (_method: string, result: Record<string, unknown>) => result,
  encodeParams: (_method: string, params: WireParams) => params,
});

const codecs: Readonly<Record<ProtocolVersion, RevisionCodec>> = Object.freeze({
  '2025-11-25': identityCodec,
  '2025-06-18': Object.freeze(new DowngradeCodec('2025-06-18')),
  '2025-03-26': Object.freeze(new DowngradeCodec('2025-03-26')),
  '2024-11-05': Object.freeze(new DowngradeCodec('2024-11-05')),
});

/**
 * The codec of a revision. Codecs are immutable singletons: sessions share them, nothing is
 * allocated per session, and the 2025-11-25 codec returns its inputs unchanged.
 *
 * @example
 * ```ts
 * const codec = codecFor('2025-03-26');
 * codec.encodeResult('tools/call', { content: [], structuredContent: { n: 1 } });
 * // { content: [{ type: 'text', text: '{"n":1}' }] }
 * codec.encodeParams('elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
 * // NOT_IN_REVISION
 * ```
 */
export function codecFor(version: ProtocolVersion): RevisionCodec {
  // Typed, but may be called with whatever a caller read off the wire: a non-string key throws.
  const codec = typeof version === 'string' ? codecs[version] : undefined;
  if (!codec)
    throw new RangeError(`No codec for protocol revision ${describeJson(version) || typeof version}`);
  return codec;
}
