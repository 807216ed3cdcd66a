// Important dates: whether a date's day is over, judged like the server does (src/clock/dates.rs
// `has_passed`): the day ends at midnight in the venue's UTC offset, whatever the visitor's
// own time zone.

/** `+08:00` / `-05:30` / `Z` → minutes east of UTC; null when it is not an offset. */
export function offsetMinutes(offset: string): number | null {
  if (offset === 'Z' || offset === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(offset.trim());
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * Whether the whole day `date` (`YYYY-MM-DD`) has passed at `nowMs` in `utcOffset`, i.e. it is
 * already the next day or later there. A date or offset that does not parse counts as not
 * passed (UTC for the offset, as the server does).
 */
export function dayHasPassed(date: string, utcOffset: string, nowMs: number): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const offset = offsetMinutes(utcOffset) ?? 0;
  const nextDayStartUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1) - offset * 60_000;
  return nowMs >= nextDayStartUtc;
}
