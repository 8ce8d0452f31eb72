/**
 * A tool call's answers on 2025-11-25 and on 2026-07-28 side by side, and whether they agree.
 * @module
 */

import { Content } from './Content.js';
import { canonical } from './canonical.js';
import { JsonView } from './common.js';

/**
 * What one revision answered, as the backend sends it.
 *
 * @example
 * ```ts
 * const side: RevisionOutcome = { era: '2025', protocolVersion: '2025-11-25', result: { content: [] } };
 * ```
 */
export interface RevisionOutcome {
  era: '2025' | '2026';
  protocolVersion?: string;
  result?: any;
  error?: { message: string; code?: number };
}

/** What a comparison looks at: the answer a person sees, not the envelope of its revision. */
function comparable(side: RevisionOutcome): string {
  if (side.error) return canonical({ error: side.error });
  const { content, structuredContent, isError } = side.result ?? {};
  return canonical({ content, structuredContent, isError: isError === true });
}

/**
 * The two answers side by side.
 *
 * @example
 * ```tsx
 * <Comparison sides={sides} />
 * ```
 */
export function Comparison({ sides }: { sides: RevisionOutcome[] }) {
  const same = sides.length === 2 && comparable(sides[0]!) === comparable(sides[1]!);
  return (
    <section class="comparison" aria-label="Both revisions">
      <h3>Both revisions</h3>
      <p role="status" class={same ? 'ok' : 'error'}>
        {same ? 'Same result on both revisions.' : 'The results differ.'}
      </p>
      <div class="columns">
        {sides.map((side) => (
          <div key={side.era} class="column">
            <h4>{side.protocolVersion ?? `${side.era} era (not connected)`}</h4>
            {side.error ? (
              <p class="error">
                Error{side.error.code === undefined ? '' : ` ${side.error.code}`}: {side.error.message}
              </p>
            ) : (
              <>
                <Content blocks={side.result?.content ?? []} />
                {side.result?.structuredContent !== undefined ? (
                  <JsonView value={side.result.structuredContent} />
                ) : null}
              </>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
