// Pure countdown arithmetic, shared by the Countdown island and its tests.

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once `now` has reached the target; all units are then 0. */
  done: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Whole days, hours, minutes and seconds from `nowMs` until `targetMs` (milliseconds). */
export function remaining(targetMs: number, nowMs: number): Remaining {
  if (!Number.isFinite(targetMs) || !Number.isFinite(nowMs)) {
    throw new RangeError(`countdown needs finite times, got target=${targetMs} now=${nowMs}`);
  }
  const left = targetMs - nowMs;
  if (left <= 0) return { days: 0, hours: 0, minutes: 0, seconds: 0, done: true };
  // Whole seconds left, rounded down: 1.5 s left shows 01.
  const s = Math.floor(left / SECOND) * SECOND;
  return {
    days: Math.floor(s / DAY),
    hours: Math.floor((s % DAY) / HOUR),
    minutes: Math.floor((s % HOUR) / MINUTE),
    seconds: Math.floor((s % MINUTE) / SECOND),
    done: false,
  };
}

/** Two digits at least: 7 → "07", 123 → "123". */
export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

export interface CountdownUnit {
  value: string;
  label: 'Days' | 'Hours' | 'Minutes' | 'Seconds';
}

/** The four units in display order, formatted as the server's fallback formats them. */
export function countdownUnits(r: Remaining): CountdownUnit[] {
  return [
    { value: pad2(r.days), label: 'Days' },
    { value: pad2(r.hours), label: 'Hours' },
    { value: pad2(r.minutes), label: 'Minutes' },
    { value: pad2(r.seconds), label: 'Seconds' },
  ];
}
