// The same field rules the server applies (src/forms/validate.rs), so the browser refuses exactly
// what the server would: a form that passes here is not answered 422.

/** Longest email address (RFC 5321), in characters. */
export const EMAIL_MAX_CHARS = 254;

const LOCAL_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;
const LABEL_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The browser's `type="email"` rule plus a dot in the domain (server: `is_valid_email`). */
export function isValidEmail(address: string): boolean {
  if (address.length > EMAIL_MAX_CHARS) return false;
  const at = address.indexOf('@');
  if (at < 0) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return LOCAL_RE.test(local) && labels.length >= 2 && labels.every((label) => LABEL_RE.test(label));
}

/**
 * Digits with `+`, spaces, `-`, `.`, `(`, `)`, and 5 to 15 digits (E.164's maximum; the
 * server's `is_valid_phone`, one rule for every form and the checkout).
 */
export function isValidPhone(number: string): boolean {
  const digits = number.replace(/\D/g, '').length;
  return /^[0-9+\-.() ]*$/.test(number) && digits >= 5 && digits <= 15;
}

/** The server's message for a malformed email address. */
export const INVALID_EMAIL = 'Please enter a valid email address';
/** The server's message for a malformed phone number. */
export const INVALID_PHONE = 'Please enter a valid phone number';
