// The zone the visitor reads the programme in (ZoneSwitch), kept in localStorage (named in the
// cookie policy's "Our own storage"). Storage can be missing or throw (private modes, blocked
// storage): then the choice holds on this page only and the next starts in event time. (Apart
// from lib/stars.ts on purpose: shared, the two would be one more chunk to fetch.)

/** `event` or `local`. */
export const ZONE_CHOICE_KEY = 'programmeZone';

export type ZoneChoice = 'event' | 'local';

export function readZoneChoice(): ZoneChoice {
  try {
    return globalThis.localStorage?.getItem(ZONE_CHOICE_KEY) === 'local' ? 'local' : 'event';
  } catch {
    return 'event';
  }
}

export function writeZoneChoice(choice: ZoneChoice): void {
  try {
    globalThis.localStorage?.setItem(ZONE_CHOICE_KEY, choice);
  } catch {
    // not remembered (above)
  }
}
