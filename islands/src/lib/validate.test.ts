import { describe, expect, it } from 'vitest';
import { isValidEmail, isValidPhone } from './validate';

// The same cases as the server's unit tests (src/forms/validate.rs), so both sides agree.
describe('isValidEmail', () => {
  it('accepts what the browser accepts when the domain has a dot', () => {
    for (const good of ['ana@example.org', 'a.b+tag@mail.example.co.uk', 'x_y@sub-domain.example', "o'neil@example.ie"]) {
      expect(isValidEmail(good), good).toBe(true);
    }
  });

  it('refuses the rest', () => {
    for (const bad of ['', 'ana', 'ana@', '@example.org', 'ana@example', 'ana@@example.org', 'ana @example.org', 'ana@exa mple.org', 'ana@-example.org', 'ana@example..org', 'ána@example.org', 'ana@.example.org', 'ana@example.org.', 'ana@exa@mple.org', '<ana>@example.org']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
    expect(isValidEmail(`${'a'.repeat(65)}@example.org`)).toBe(false);
  });
});

describe('isValidPhone', () => {
  it('accepts numbers as people write them', () => {
    for (const good of ['+15551234567', '+63 917 123 4567', '(02) 8123-4567', '555.123.4567']) {
      expect(isValidPhone(good), good).toBe(true);
    }
  });

  it('refuses words, too few and too many digits', () => {
    for (const bad of ['call me', '1234', '+1 555 CALL NOW', '123456789012345678901']) {
      expect(isValidPhone(bad), bad).toBe(false);
    }
    // E.164's 15 digits at most, as on the server.
    expect(isValidPhone('+63 917 123 4567 890')).toBe(true);
    expect(isValidPhone('+63 917 123 4567 8901')).toBe(false);
  });
});
