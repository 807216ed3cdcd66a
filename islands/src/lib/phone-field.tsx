// A phone input with a country picker (react-phone-number-input, default country US: spec
// section 5), for any form that asks for a phone or WhatsApp number. The value is E.164
// (`+15551234567`) or '' while empty.
//
// Flags are emoji from the country code: the library's default flag images come from another
// site, which the Content-Security-Policy blocks, and its bundled SVG flags weigh ~44 kB.

import PhoneInput, { parsePhoneNumber, isSupportedCountry, type Country } from 'react-phone-number-input';
import countryNames from 'react-phone-number-input/locale/en.json';
import 'react-phone-number-input/style.css';

/** Default country of every phone input (spec sections 5 and 9). */
export const DEFAULT_PHONE_COUNTRY = 'US';

/** A country code as its flag emoji (regional-indicator letters), '' for anything else. */
export function flagEmoji(country: string): string {
  if (!/^[A-Z]{2}$/.test(country)) return '';
  return String.fromCodePoint(...Array.from(country, (c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

function EmojiFlag({ country }: { country: string }) {
  return (
    <span className="phone-field__flag" aria-hidden="true">
      {flagEmoji(country)}
    </span>
  );
}

/** Text someone typed (e.g. into a server-rendered form) as E.164, or '' if it is no number. */
export function toE164(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    return parsePhoneNumber(trimmed, DEFAULT_PHONE_COUNTRY)?.number ?? '';
  } catch {
    return '';
  }
}

/** A country as the visitor typed it in a form's Country field ("Philippines", "philippines",
 *  "PH") as the picker's code, or null when it names none. */
export function countryCode(typed: string | undefined): Country | null {
  const wanted = (typed ?? '').trim().toLowerCase();
  if (wanted === '') return null;
  const names = countryNames as Record<string, string>;
  for (const [code, name] of Object.entries(names)) {
    if (/^[A-Z]{2}$/.test(code) && (name.toLowerCase() === wanted || code.toLowerCase() === wanted) && isSupportedCountry(code)) {
      return code as Country;
    }
  }
  return null;
}

export interface PhoneFieldProps {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  invalid?: boolean;
  /** Id of the element describing an error. */
  describedBy?: string;
  maxLength?: number;
  /** The form's Country field as typed: the picker follows it while the visitor has neither
   *  chosen a phone country nor typed a number; without one it stays on the default (US). */
  country?: string;
}

export function PhoneField({ id, name, value, onChange, required, invalid, describedBy, maxLength, country }: PhoneFieldProps) {
  return (
    <PhoneInput
      id={id}
      name={name}
      type="tel"
      className="phone-field"
      defaultCountry={countryCode(country) ?? DEFAULT_PHONE_COUNTRY}
      value={value || undefined}
      onChange={(next) => onChange(next ?? '')}
      flagComponent={EmojiFlag}
      countrySelectProps={{ 'aria-label': 'Phone number country' }}
      autoComplete="tel"
      required={required}
      maxLength={maxLength}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    />
  );
}
