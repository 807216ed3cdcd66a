// The talks the visitor starred (Agenda), kept in localStorage as a JSON array of slugs (named
// in the cookie policy's "Our own storage"). Storage can be missing or throw (private modes,
// blocked storage): then the stars last as long as the page. Slugs of talks the page does not
// list stay stored (a filtered view lists only some). (Apart from lib/zoneChoice.ts on
// purpose: shared, the two would be one more chunk to fetch.)

export const STARS_KEY = 'programmeStars';

/** The starred slugs; anything unreadable counts as none. */
export function readStars(): string[] {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(STARS_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function writeStars(slugs: readonly string[]): void {
  try {
    globalThis.localStorage?.setItem(STARS_KEY, JSON.stringify(slugs));
  } catch {
    // not remembered (above)
  }
}
