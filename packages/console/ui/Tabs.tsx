/**
 * Tabs as the WAI-ARIA pattern has them: a tablist whose tabs are reached with the arrow keys,
 * Home and End, and one tab panel.
 * @module
 */
import type { ComponentChildren } from 'preact';

/**
 * Tabs with one panel, the selected tab's.
 *
 * @example
 * ```tsx
 * <Tabs tabs={[{ id: 'a', label: 'A' }]} selected="a" onSelect={setTab}>…</Tabs>
 * ```
 */
export function Tabs(props: {
  tabs: { id: string; label: string }[];
  selected: string;
  onSelect: (id: string) => void;
  children: ComponentChildren;
}) {
  const index = Math.max(
    props.tabs.findIndex((tab) => tab.id === props.selected),
    0,
  );
  const move = (event: KeyboardEvent) => {
    const last = props.tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % props.tabs.length
        : event.key === 'ArrowLeft'
          ? (index + last) % props.tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    props.onSelect(props.tabs[next]!.id);
    document.getElementById(`tab-${props.tabs[next]!.id}`)?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label="Views" class="tabs" onKeyDown={move}>
        {props.tabs.map((tab) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={tab.id === props.selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === props.selected ? 0 : -1}
            onClick={() => props.onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${props.selected}`}
        aria-labelledby={`tab-${props.selected}`}
        class="panel"
      >
        {props.children}
      </div>
    </>
  );
}
