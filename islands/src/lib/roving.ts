// Roving focus among a row or column of controls (WAI-ARIA Authoring Practices: tabs move with
// Left/Right, accordion headers with Up/Down; both wrap, Home and End go to the ends). Shared
// by the speaker tabs (tabs.ts) and the policy accordion (accordion.ts).

export type Orientation = 'horizontal' | 'vertical';

const KEYS: Record<Orientation, { next: string; previous: string }> = {
  horizontal: { next: 'ArrowRight', previous: 'ArrowLeft' },
  vertical: { next: 'ArrowDown', previous: 'ArrowUp' },
};

/**
 * The index a key moves to from `current` among `count` controls laid out along
 * `orientation`, or null for keys the group does not handle. Keys are KeyboardEvent.key values.
 */
export function rovingTarget(current: number, key: string, count: number, orientation: Orientation): number | null {
  if (count <= 0) return null;
  switch (key) {
    case KEYS[orientation].next:
      return (current + 1) % count;
    case KEYS[orientation].previous:
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
