// The home page's contact form (spec sections 2, 3, 5 and 8; DESIGN.md section 5): Name,
// Phone / Whatsapp.no, Email address, Country, Message, Submit. All five required; the email
// (and the phone number) are checked here with the server's own rules before anything is
// sent. POST /api/contact; success clears the form and shows 'Message sent successfully!',
// failure keeps it and shows 'Error sending message. Please try again.' (plus the server's
// field errors under their fields, when it names any).
//
// Renders the markup of templates/partials/contact_form.html (same classes, ids and labels),
// so mounting replaces the fallback without a shift; what was typed into the fallback is kept.

import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiError, postJson, type FieldErrors } from '../lib/api';
import { fallbackValue, focusedFallback } from '../lib/fallback';
import { PhoneField, toE164 } from '../lib/phone-field';
import { toastError, toastSuccess, useToastHost } from '../lib/toasts';
import { EMAIL_MAX_CHARS, INVALID_EMAIL, INVALID_PHONE, isValidEmail, isValidPhone } from '../lib/validate';

/** Spec section 8. */
export const SENT_MESSAGE = 'Message sent successfully!';
export const ERROR_MESSAGE = 'Error sending message. Please try again.';

export type ContactField = 'name' | 'number' | 'email' | 'country' | 'message';
export type ContactValues = Record<ContactField, string>;

/** Fields in form order, with the labels and bounds of the server (src/handlers/api/contact.rs). */
export const FIELDS: ReadonlyArray<{ name: ContactField; label: string; max: number }> = [
  { name: 'name', label: 'Name', max: 120 },
  { name: 'number', label: 'Phone / Whatsapp.no', max: 32 },
  { name: 'email', label: 'Email address', max: EMAIL_MAX_CHARS },
  { name: 'country', label: 'Country', max: 80 },
  { name: 'message', label: 'Message', max: 5000 },
];

const EMPTY: ContactValues = { name: '', number: '', email: '', country: '', message: '' };
const idOf = (field: ContactField) => `contact-${field}`;

/** The server's checks, in form order: field → reason (empty when the form may be sent). */
export function validateContact(values: ContactValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const { name, label, max } of FIELDS) {
    const value = values[name].trim();
    if (value === '') errors[name] = `${label} is required`;
    else if ([...value].length > max) errors[name] = `${label} must be at most ${max} characters`;
    else if (name === 'email' && !isValidEmail(value)) errors[name] = INVALID_EMAIL;
    else if (name === 'number' && !isValidPhone(value)) errors[name] = INVALID_PHONE;
  }
  return errors;
}

function initialValues(): ContactValues {
  return {
    name: fallbackValue(idOf('name')),
    number: toE164(fallbackValue(idOf('number'))),
    email: fallbackValue(idOf('email')),
    country: fallbackValue(idOf('country')),
    message: fallbackValue(idOf('message')),
  };
}

export default function ContactForm() {
  const [values, setValues] = useState<ContactValues>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  const [refocus] = useState(() => focusedFallback(FIELDS.map((f) => idOf(f.name))));
  const gotcha = useRef<HTMLInputElement>(null);
  useToastHost();

  useEffect(() => {
    if (refocus) document.getElementById(refocus)?.focus();
  }, [refocus]);

  function set(field: ContactField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    // The visitor is fixing it: the old reason no longer applies.
    setErrors((e) => {
      if (!(field in e)) return e;
      const { [field]: _, ...rest } = e;
      return rest;
    });
  }

  const onText = (field: ContactField) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field, e.target.value);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const problems = validateContact(values);
    const first = FIELDS.find((f) => problems[f.name]);
    if (first) {
      setErrors(problems);
      document.getElementById(idOf(first.name))?.focus();
      return;
    }
    setSending(true);
    try {
      const payload = Object.fromEntries(FIELDS.map(({ name }) => [name, values[name].trim()]));
      await postJson<{ id: string }>('/api/contact', { ...payload, _gotcha: gotcha.current?.value ?? '' });
      setValues(EMPTY);
      setErrors({});
      toastSuccess(SENT_MESSAGE);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      toastError(ERROR_MESSAGE);
    } finally {
      setSending(false);
    }
  }

  const describe = (field: ContactField) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${idOf(field)}-error` : undefined,
  });
  const errorText = (field: ContactField) =>
    errors[field] ? (
      <p className="field__error" id={`${idOf(field)}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form className="form contact-form" method="post" action="/api/contact" noValidate onSubmit={onSubmit} aria-busy={sending || undefined}>
      <div className="field">
        <label htmlFor="contact-name">Name</label>
        <input id="contact-name" name="name" required maxLength={120} autoComplete="name" value={values.name} onChange={onText('name')} {...describe('name')} />
        {errorText('name')}
      </div>
      <div className="field">
        <label htmlFor="contact-number">Phone / Whatsapp.no</label>
        <PhoneField
          id="contact-number"
          name="number"
          required
          maxLength={32}
          value={values.number}
          onChange={(v) => set('number', v)}
          country={values.country}
          invalid={!!errors.number}
          describedBy={errors.number ? 'contact-number-error' : undefined}
        />
        {errorText('number')}
      </div>
      <div className="field">
        <label htmlFor="contact-email">Email address</label>
        <input id="contact-email" name="email" type="email" required maxLength={EMAIL_MAX_CHARS} autoComplete="email" value={values.email} onChange={onText('email')} {...describe('email')} />
        {errorText('email')}
      </div>
      <div className="field">
        <label htmlFor="contact-country">Country</label>
        <input id="contact-country" name="country" required maxLength={80} autoComplete="country-name" value={values.country} onChange={onText('country')} {...describe('country')} />
        {errorText('country')}
      </div>
      <div className="field field--wide">
        <label htmlFor="contact-message">Message</label>
        <textarea id="contact-message" name="message" rows={5} required maxLength={5000} value={values.message} onChange={onText('message')} {...describe('message')} />
        {errorText('message')}
      </div>
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor="contact-gotcha">Leave this empty</label>
        <input id="contact-gotcha" name="_gotcha" tabIndex={-1} autoComplete="off" ref={gotcha} defaultValue="" />
      </div>
      <button className="button button--primary" type="submit" disabled={sending}>
        Submit
      </button>
    </form>
  );
}
