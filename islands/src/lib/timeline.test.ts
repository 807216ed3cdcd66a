import { describe, expect, it } from 'vitest';
import { dayHasPassed, offsetMinutes } from './timeline';

describe('UTC offsets', () => {
  it('parses the site setting', () => {
    expect(offsetMinutes('+08:00')).toBe(480);
    expect(offsetMinutes('-05:30')).toBe(-330);
    expect(offsetMinutes('+0530')).toBe(330);
    expect(offsetMinutes('Z')).toBe(0);
    expect(offsetMinutes('Manila')).toBeNull();
  });
});

describe('a day has passed (same rule as src/clock/dates.rs has_passed)', () => {
  // The server's own test case: 2025-03-18 16:30 UTC is 2025-03-19 00:30 in Manila.
  it('passes at midnight in the venue time zone', () => {
    expect(dayHasPassed('2025-03-18', '+08:00', Date.parse('2025-03-18T16:30:00Z'))).toBe(true);
    expect(dayHasPassed('2025-03-18', '+08:00', Date.parse('2025-03-18T15:30:00Z'))).toBe(false);
    expect(dayHasPassed('2025-03-18', '+08:00', Date.parse('2025-03-19T00:00:00+08:00'))).toBe(true);
    expect(dayHasPassed('2025-03-18', '+08:00', Date.parse('2025-03-18T23:59:59+08:00'))).toBe(false);
  });

  it('does not depend on the visitor time zone, only on the instant', () => {
    const instant = Date.parse('2025-03-18T20:00:00-05:00'); // 19 March 09:00 in Manila
    expect(dayHasPassed('2025-03-18', '+08:00', instant)).toBe(true);
    expect(dayHasPassed('2025-03-18', '-05:00', instant)).toBe(false);
  });

  it('counts a date it cannot read as not passed, and an unreadable offset as UTC', () => {
    expect(dayHasPassed('18 March', '+08:00', Date.now())).toBe(false);
    expect(dayHasPassed('2025-03-18', 'Asia/Manila', Date.parse('2025-03-19T00:00:00Z'))).toBe(true);
    expect(dayHasPassed('2025-03-18', 'Asia/Manila', Date.parse('2025-03-18T23:59:59Z'))).toBe(false);
  });
});
