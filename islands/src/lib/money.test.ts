// The same tables as the unit tests in src/base/money.rs: what the page shows must be what the
// server charges.
import { describe, expect, it } from 'vitest';
import {
  INVALID_AMOUNT_MESSAGE,
  customBreakdown,
  customTotalCents,
  formatCents,
  formatDisplay,
  parseAmountCents,
  type AmountError,
} from './money';

describe('parseAmountCents', () => {
  it.each<[string, number]>([
    ['100', 10_000],
    ['100.5', 10_050],
    ['100.50', 10_050],
    [' 12.34 ', 1_234],
    ['\t7\n', 700],
    ['0.01', 1],
    ['0.005', 1],
    ['0.125', 13],
    ['0.124999', 12],
    ['1.995', 200],
    ['2.345', 235],
    ['007.10', 710],
    ['.5', 50],
    ['5.', 500],
    ['219', 21_900],
    ['15000.00', 1_500_000],
    ['999999.99', 99_999_999],
    ['999999.995', 100_000_000],
    ['1000000', 100_000_000],
    ['1000000.00000', 100_000_000],
    ['0.0100000000000000000000000000000000000000001', 1],
    ['12.345000000000000000000000000000000000000000', 1_235],
  ])('%j is %i cents', (input, cents) => {
    expect(parseAmountCents(input)).toEqual({ ok: true, cents });
  });

  it.each<[string, AmountError]>([
    ['', 'empty'],
    ['   ', 'empty'],
    ['-5', 'not-a-number'],
    ['-0', 'not-a-number'],
    ['+5', 'not-a-number'],
    ['1e3', 'not-a-number'],
    ['1E3', 'not-a-number'],
    ['NaN', 'not-a-number'],
    ['inf', 'not-a-number'],
    ['Infinity', 'not-a-number'],
    ['abc', 'not-a-number'],
    ['12abc', 'not-a-number'],
    ['1,000', 'not-a-number'],
    ['1 000', 'not-a-number'],
    ['1.2.3', 'not-a-number'],
    ['.', 'not-a-number'],
    ['$5', 'not-a-number'],
    ['٣', 'not-a-number'],
    ['0x10', 'not-a-number'],
    ['0', 'not-positive'],
    ['0.00', 'not-positive'],
    ['000.000', 'not-positive'],
    ['0.004', 'not-positive'],
    ['0.0049999', 'not-positive'],
    ['1000000.01', 'too-large'],
    ['1000000.0000001', 'too-large'],
    ['1000001', 'too-large'],
    ['9999999', 'too-large'],
    ['99999999999999999999999999999999', 'too-large'],
  ])('%j is refused (%s)', (input, error) => {
    expect(parseAmountCents(input)).toEqual({ ok: false, error });
  });
});

describe('customTotalCents: amount x 1.06, half up, rounded once', () => {
  it.each<[string, number]>([
    ['100', 10_600],
    ['0.01', 1],
    ['0.05', 5],
    ['0.25', 27],
    ['0.75', 80],
    ['33.335', 3_534],
    ['33.33', 3_533],
    ['10.005', 1_061],
    ['0.005', 1],
    ['1.125', 119],
    ['12.5', 1_325],
    ['219', 23_214],
    ['99.99', 10_599],
    ['1000000', 106_000_000],
    [' 50 ', 5_300],
    ['2.3549', 250],
    ['0.0048', 1],
  ])('%j totals %i cents', (input, cents) => {
    expect(customTotalCents(input)).toEqual({ ok: true, cents });
  });

  it('does not round the amount before adding tax', () => {
    // 2.3549 rounded first is 2.35 -> 2.491 -> 2.49; exact 2.496194 -> 2.50.
    expect(formatCents((customTotalCents('2.3549') as { cents: number }).cents)).toBe('2.50');
    expect(formatCents((customTotalCents('33.335') as { cents: number }).cents)).toBe('35.34');
    expect(formatCents((customTotalCents('0.25') as { cents: number }).cents)).toBe('0.27');
    expect(formatCents((customTotalCents('100') as { cents: number }).cents)).toBe('106.00');
  });

  it.each<[string, AmountError]>([
    ['', 'empty'],
    ['-1', 'not-a-number'],
    ['1e2', 'not-a-number'],
    ['NaN', 'not-a-number'],
    ['0', 'not-positive'],
    ['0.0047', 'not-positive'],
    ['1000000.01', 'too-large'],
  ])('%j is refused (%s)', (input, error) => {
    expect(customTotalCents(input)).toEqual({ ok: false, error });
  });
});

describe('customBreakdown', () => {
  it('shows amount, 6% tax and total that add up', () => {
    expect(customBreakdown('100')).toEqual({ amountCents: 10_000, taxCents: 600, totalCents: 10_600 });
    expect(customBreakdown('33.335')).toEqual({ amountCents: 3_334, taxCents: 200, totalCents: 3_534 });
  });

  it('is absent for anything but a positive number', () => {
    for (const input of ['', ' ', '0', '-3', 'abc', '0.001', '1e3']) {
      expect(customBreakdown(input), input).toBeNull();
    }
  });
});

describe('formatting', () => {
  it.each<[number, string]>([
    [10_600, '106.00'],
    [0, '0.00'],
    [1, '0.01'],
    [50, '0.50'],
    [21_900, '219.00'],
    [1_500_000, '15000.00'],
    [106_000_000, '1060000.00'],
    [-1_234, '-12.34'],
  ])('formatCents(%i) is %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it.each<[number, string]>([
    [1_500_000, 'USD 15,000.00'],
    [10_600, 'USD 106.00'],
    [99_999, 'USD 999.99'],
    [100_000, 'USD 1,000.00'],
    [7, 'USD 0.07'],
    [106_000_000, 'USD 1,060,000.00'],
    [-123_456, 'USD -1,234.56'],
  ])('formatDisplay(%i) is %s', (cents, text) => {
    expect(formatDisplay(cents, 'USD')).toBe(text);
  });

  it('keeps the currency given', () => {
    expect(formatDisplay(1_200_000, 'INR')).toBe('INR 12,000.00');
  });

  it('uses the spec message', () => {
    expect(INVALID_AMOUNT_MESSAGE).toBe('Please enter a valid amount');
  });
});
