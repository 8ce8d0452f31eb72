/**
 * The button at the end of a list that has more pages.
 * @module
 */
import { useState } from 'preact/hooks';

/**
 * "More tools" (or resources, templates, prompts): fetches the next page; nothing when there is none.
 *
 * @example
 * ```tsx
 * <MoreButton what="tools" onMore={more} />
 * ```
 */
export function MoreButton(props: { what: string; onMore: (() => Promise<void>) | undefined }) {
  const [busy, setBusy] = useState(false);
  const { onMore } = props;
  if (!onMore) return null;
  const more = async () => {
    setBusy(true);
    try {
      await onMore();
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class="more" onClick={more} disabled={busy}>
      More {props.what}
    </button>
  );
}
