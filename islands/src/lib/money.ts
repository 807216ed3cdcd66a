// Money for display: amounts are integer cents (1/100 of the currency unit), never floats.
//
// This mirrors src/base/money.rs so the totals the page shows are the ones the server charges:
// the custom payment total is the exact decimal amount x 1.06, rounded half up to cents once
// (spec section 9, DESIGN section 5). The server computes what it charges itself; this file
// only decides what the visitor sees before paying and whether to let them try.

/** The spec's message for any invalid custom amount (spec sections 5 and 8). */
export const INVALID_AMOUNT_MESSAGE = 'Please enter a valid amount';

/** Largest amount accepted, in cents (1,000,000.00), as in src/base/money.rs `MAX_AMOUNT_CENTS`. */
export const MAX_AMOUNT_CENTS = 100_000_000;

/** Tax added to a custom payment, in percent (spec section 9: "6% tax added"). */
export const CUSTOM_TAX_PERCENT = 6;

/** Share of the fee that goes to reforestation, in percent (spec section 9). */
export const REFORESTATION_PERCENT = 5;

/** Why an amount was refused; each shows as [`INVALID_AMOUNT_MESSAGE`]. */
export type AmountError = 'empty' | 'not-a-number' | 'not-positive' | 'too-large';

export type AmountResult = { ok: true; cents: number } | { ok: false; error: AmountError };

interface Decimal {
  int: string;
  frac: string;
}

const DIGITS = /^[0-9]*$/;

/** `digits[.digits]` after trimming (either side may be empty, not both), 0 < value <= max. */
function parseDecimal(input: string): Decimal | AmountError {
  const s = input.trim();
  if (s === '') return 'empty';
  const point = s.indexOf('.');
  const rawInt = point < 0 ? s : s.slice(0, point);
  const frac = point < 0 ? '' : s.slice(point + 1);
  if (!DIGITS.test(rawInt) || !DIGITS.test(frac) || (rawInt === '' && frac === '')) return 'not-a-number';
  const int = rawInt.replace(/^0+/, '');
  const fracZero = /^0*$/.test(frac);
  if (int === '' && fracZero) return 'not-positive';
  const maxUnits = String(MAX_AMOUNT_CENTS / 100);
  if (
    int.length > maxUnits.length ||
    (int.length === maxUnits.length && (int > maxUnits || (int === maxUnits && !fracZero)))
  ) {
    return 'too-large';
  }
  return { int, frac };
}

/** Exact `value * multiplier / 100` in cents, rounded half up once (BigInt, no floats). */
function centsTimes(d: Decimal, multiplier: number): number {
  const digits = BigInt((d.int + d.frac) || '0');
  const scale = 10n ** BigInt(d.frac.length);
  const product = digits * BigInt(multiplier);
  const quotient = product / scale;
  const remainder = product % scale;
  // "At least half" of the last cent: 2 * remainder >= scale.
  return Number(quotient + (2n * remainder >= scale ? 1n : 0n));
}

function toResult(d: Decimal | AmountError, multiplier: number): AmountResult {
  if (typeof d === 'string') return { ok: false, error: d };
  const cents = centsTimes(d, multiplier);
  return cents === 0 ? { ok: false, error: 'not-positive' } : { ok: true, cents };
}

/** A visitor's decimal amount in cents, as src/base/money.rs `parse_amount`: `"100.5"` -> 10050. */
export function parseAmountCents(input: string): AmountResult {
  return toResult(parseDecimal(input), 100);
}

/**
 * The custom payment total in cents, as src/base/money.rs `custom_total_cents`: the exact amount
 * x 1.06 rounded half up once. `"100"` -> 10600, `"0.25"` -> 27, `"33.335"` -> 3534.
 */
export function customTotalCents(input: string): AmountResult {
  return toResult(parseDecimal(input), 100 + CUSTOM_TAX_PERCENT);
}

/** The lines of the custom payment breakdown, in cents; tax is total - amount so they add up. */
export interface Breakdown {
  amountCents: number;
  taxCents: number;
  totalCents: number;
}

/** The breakdown for a valid amount, or null when the amount is not a positive number. */
export function customBreakdown(input: string): Breakdown | null {
  const total = customTotalCents(input);
  if (!total.ok) return null;
  const amount = parseAmountCents(input);
  // An amount below half a cent rounds to 0 while its taxed total does not (0.0048 -> 0.01).
  const amountCents = amount.ok ? amount.cents : 0;
  return { amountCents, taxCents: total.cents - amountCents, totalCents: total.cents };
}

/** Cents as a plain decimal string: 10600 -> "106.00" (src/base/money.rs `format_cents`). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents for people: (1500000, "USD") -> "USD 15,000.00" (src/base/money.rs `format_display`). */
export function formatDisplay(cents: number, currency: string): string {
  const plain = formatCents(cents);
  const sign = plain.startsWith('-') ? '-' : '';
  const [units, frac] = plain.slice(sign.length).split('.');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currency} ${sign}${grouped}.${frac}`;
}
