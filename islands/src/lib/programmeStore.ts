// What the programme's islands remember in the visitor's browser (named in the cookie
// policy's "Our own storage"): the zone they read times in, and the talks they starred.
// localStorage can be missing or throw (private modes, blocked storage): then nothing is
// remembered and the page starts in event time with no stars.

/** `event` or `local` (ZoneSwitch). */
export const ZONE_CHOICE_KEY = 'programmeZone';
/** The starred talks' slugs, a JSON array (Agenda). */
export const STARS_KEY = 'programmeStars';

export type ZoneChoice = 'event' | 'local';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // not remembered: the choice holds on this page only
  }
}

export function readZoneChoice(): ZoneChoice {
  return read(ZONE_CHOICE_KEY) === 'local' ? 'local' : 'event';
}

export function writeZoneChoice(choice: ZoneChoice): void {
  write(ZONE_CHOICE_KEY, choice);
}

/** The starred slugs; anything unreadable counts as none. */
export function readStars(): string[] {
  try {
    const value: unknown = JSON.parse(read(STARS_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function writeStars(slugs: readonly string[]): void {
  write(STARS_KEY, JSON.stringify(slugs));
}
