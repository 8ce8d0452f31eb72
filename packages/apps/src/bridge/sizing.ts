/**
 * How a view's `ui/notifications/size-changed` resizes its frame: each dimension the host fixed
 * (`containerDimensions.height`/`width`) stays; a flexible one follows the view up to its maximum.
 * Width follows only when the host gave `containerDimensions` without a fixed width (otherwise the
 * frame keeps the container's width).
 * @module
 */
import type { HostContext } from './types.js';

const MAX_PIXELS = 100_000;

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.min(Math.ceil(value), MAX_PIXELS)
    : undefined;
}

/**
 * The frame size for a reported view size, or `undefined` members where the frame keeps its size.
 *
 * @example
 * ```ts
 * frameSize({ height: 321 }, { containerDimensions: { maxHeight: 300 } }); // { height: 300 }
 * ```
 */
export function frameSize(
  reported: { width?: unknown; height?: unknown },
  context: HostContext,
): { width?: number; height?: number } {
  const container = context.containerDimensions;
  const out: { width?: number; height?: number } = {};
  const height = dimension(reported.height);
  if (height !== undefined && container?.height === undefined) {
    out.height = container?.maxHeight !== undefined ? Math.min(height, container.maxHeight) : height;
  }
  const width = dimension(reported.width);
  if (width !== undefined && container !== undefined && container.width === undefined) {
    out.width = container.maxWidth !== undefined ? Math.min(width, container.maxWidth) : width;
  }
  return out;
}
