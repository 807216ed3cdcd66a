// The footer's newsletter box (spec section 5; DESIGN.md section 5): an email address,
// required and checked with the server's rule, POSTed to /api/newsletter. On success the box
// clears and says so (201 new, 200 already subscribed); on failure the address stays and the
// reason is shown. Renders the markup of the footer's fallback form (templates/partials/
// footer.html), keeping what was typed into it.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, postJson } from '../lib/api';
import { fallbackValue, focusedFallback } from '../lib/fallback';
import { toastError, toastSuccess, useToastHost } from '../lib/toasts';
import { EMAIL_MAX_CHARS, INVALID_EMAIL, isValidEmail } from '../lib/validate';

export const REQUIRED_MESSAGE = 'Email address is required';
export const FAILED_MESSAGE = 'Could not subscribe. Please try again.';
/** Shown when the server's answer carries no message of its own: the spec's text, then a line
 *  asking to confirm from the inbox (double opt-in). */
export const SUBSCRIBED_MESSAGE =
  'Thank you for subscribing!\nPlease confirm your subscription with the link we have just emailed you.';

const INPUT_ID = 'newsletter-email';
const STATUS_ID = 'newsletter-status';

/** The reason an address cannot be sent, or null. */
export function validateNewsletterEmail(email: string): string | null {
  const value = email.trim();
  if (value === '') return REQUIRED_MESSAGE;
  if ([...value].length > EMAIL_MAX_CHARS) return `Email address must be at most ${EMAIL_MAX_CHARS} characters`;
  if (!isValidEmail(value)) return INVALID_EMAIL;
  return null;
}

type Status = { kind: 'ok' | 'error'; text: string } | null;

export default function Newsletter() {
  const [email, setEmail] = useState(() => fallbackValue(INPUT_ID));
  const [status, setStatus] = useState<Status>(null);
  const [sending, setSending] = useState(false);
  const [refocus] = useState(() => focusedFallback([INPUT_ID]));
  const gotcha = useRef<HTMLInputElement>(null);
  useToastHost();

  useEffect(() => {
    if (refocus) document.getElementById(refocus)?.focus();
  }, [refocus]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const problem = validateNewsletterEmail(email);
    if (problem) {
      setStatus({ kind: 'error', text: problem });
      document.getElementById(INPUT_ID)?.focus();
      return;
    }
    setSending(true);
    try {
      const answer = await postJson<{ message?: string }>('/api/newsletter', { email: email.trim(), _gotcha: gotcha.current?.value ?? '' });
      const text = answer.data.message || SUBSCRIBED_MESSAGE;
      setEmail('');
      setStatus({ kind: 'ok', text });
      toastSuccess(text);
    } catch (error) {
      const reason = error instanceof ApiError ? error.errors.email : undefined;
      setStatus({ kind: 'error', text: reason ?? FAILED_MESSAGE });
      toastError(FAILED_MESSAGE);
    } finally {
      setSending(false);
    }
  }

  const invalid = status?.kind === 'error';
  return (
    <form className="newsletter" method="post" action="/api/newsletter" noValidate onSubmit={onSubmit} aria-busy={sending || undefined}>
      <label htmlFor={INPUT_ID}>Email address</label>
      <div className="newsletter__row">
        <input
          id={INPUT_ID}
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={EMAIL_MAX_CHARS}
          placeholder="you@example.org"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (invalid) setStatus(null);
          }}
          aria-invalid={invalid || undefined}
          aria-describedby={status ? STATUS_ID : undefined}
        />
        <button className="button button--primary" type="submit" disabled={sending}>
          Subscribe
        </button>
      </div>
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor="newsletter-gotcha">Leave this empty</label>
        <input id="newsletter-gotcha" name="_gotcha" tabIndex={-1} autoComplete="off" ref={gotcha} defaultValue="" />
      </div>
      <p className={`newsletter__status${status ? ` newsletter__status--${status.kind}` : ''}`} id={STATUS_ID} role="status">
        {status?.text}
      </p>
    </form>
  );
}
