// Goals row: scroll positions for mouse dragging and keyboard steps, matching the CSS scroll
// snap (`scroll-snap-align: start` with `scroll-padding-inline`). Pixels throughout.

/**
 * Snap positions of the cards: each card's left edge (relative to the row's scrolled content)
 * minus the scroll padding, clamped to 0..max, ascending, without duplicates.
 */
export function snapPositions(cardOffsets: number[], padding: number, max: number): number[] {
  const out: number[] = [];
  for (const offset of cardOffsets) {
    const pos = Math.round(Math.min(Math.max(offset - padding, 0), Math.max(max, 0)));
    if (!out.includes(pos)) out.push(pos);
  }
  return out.sort((a, b) => a - b);
}

/** Index of the position closest to `x` (-1 when there are none). */
export function nearestIndex(positions: number[], x: number): number {
  let best = -1;
  for (let i = 0; i < positions.length; i++) {
    if (best < 0 || Math.abs(positions[i] - x) < Math.abs(positions[best] - x)) best = i;
  }
  return best;
}

/**
 * Where a drag that ended at `x`, moving in `direction` (-1 left, 1 right, 0 none, of the
 * content), should settle: the nearest position, or the next one in the drag's direction when
 * the drag moved past the nearest by more than `threshold` — a short flick still advances.
 */
export function settleTarget(positions: number[], x: number, direction: number, threshold = 24): number {
  if (positions.length === 0) return x;
  const i = nearestIndex(positions, x);
  const past = x - positions[i];
  if (direction > 0 && past > threshold && i + 1 < positions.length) return positions[i + 1];
  if (direction < 0 && -past > threshold && i > 0) return positions[i - 1];
  return positions[i];
}

/** The position one step from `x` (`step` -1 or 1), or the first/last for Home/End. */
export function stepTarget(positions: number[], x: number, step: -1 | 1): number {
  if (positions.length === 0) return x;
  if (step > 0) return positions.find((p) => p > x + 1) ?? positions[positions.length - 1];
  return [...positions].reverse().find((p) => p < x - 1) ?? positions[0];
}

/** scrollLeft while dragging: the content follows the pointer, clamped to the row. */
export function dragScrollLeft(startScroll: number, startX: number, x: number, max: number): number {
  return Math.min(Math.max(startScroll - (x - startX), 0), Math.max(max, 0));
}

/** Pointer travel (px) before a press becomes a drag, so clicks stay clicks. */
export const DRAG_THRESHOLD = 4;
