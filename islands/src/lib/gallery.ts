// Gallery viewer stepping: previous/next wrap around the ends.

/** The index `delta` steps from `index` among `count` images, wrapping. */
export function stepIndex(index: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + delta) % count) + count) % count;
}

/** Which step a key means in the viewer, or null. */
export function viewerKeyStep(key: string): -1 | 1 | null {
  if (key === 'ArrowLeft') return -1;
  if (key === 'ArrowRight') return 1;
  return null;
}

/** "3 of 10", for the viewer's position line. */
export function positionLabel(index: number, count: number): string {
  return `${index + 1} of ${count}`;
}
