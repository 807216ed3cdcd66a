import { describe, expect, it } from 'vitest';
import { countdownUnits, pad2, remaining } from './countdown';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const target = Date.parse('2025-03-21T00:00:00+08:00');

describe('remaining', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = target - (12 * D + 5 * H + 4 * M + 3 * S);
    expect(remaining(target, now)).toEqual({ days: 12, hours: 5, minutes: 4, seconds: 3, done: false });
  });

  it('rounds partial seconds down', () => {
    expect(remaining(target, target - 1500)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1, done: false });
    expect(remaining(target, target - 999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: false });
  });

  it('is done with all zeros exactly at the target', () => {
    expect(remaining(target, target)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
  });

  it('is done with all zeros (never negative) past the target', () => {
    expect(remaining(target, target + 1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
    expect(remaining(target, target + 400 * D)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
  });

  it('rolls over at day, hour and minute boundaries', () => {
    expect(remaining(target, target - D)).toEqual({ days: 1, hours: 0, minutes: 0, seconds: 0, done: false });
    expect(remaining(target, target - (D - S))).toEqual({ days: 0, hours: 23, minutes: 59, seconds: 59, done: false });
    expect(remaining(target, target - (D + S))).toEqual({ days: 1, hours: 0, minutes: 0, seconds: 1, done: false });
    expect(remaining(target, target - H)).toEqual({ days: 0, hours: 1, minutes: 0, seconds: 0, done: false });
    expect(remaining(target, target - M)).toEqual({ days: 0, hours: 0, minutes: 1, seconds: 0, done: false });
  });

  it('counts days past 99 without truncating', () => {
    expect(remaining(target, target - 123 * D).days).toBe(123);
  });

  it('rejects times that are not numbers', () => {
    expect(() => remaining(Number.NaN, 0)).toThrow(RangeError);
    expect(() => remaining(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('pads to two digits and no further', () => {
    expect(pad2(0)).toBe('00');
    expect(pad2(7)).toBe('07');
    expect(pad2(12)).toBe('12');
    expect(pad2(123)).toBe('123');
  });

  it('lists the four units in order with their labels', () => {
    expect(countdownUnits({ days: 3, hours: 4, minutes: 5, seconds: 6, done: false })).toEqual([
      { value: '03', label: 'Days' },
      { value: '04', label: 'Hours' },
      { value: '05', label: 'Minutes' },
      { value: '06', label: 'Seconds' },
    ]);
  });
});
