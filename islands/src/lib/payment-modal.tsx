// The registration / payment modal every checkout island opens (spec section 2: Registration
// modal). Name, Email, Phone (international picker, default country US), Address, City,
// State, ZIP Code, Country, or only Name and Email for a sponsor; Pay Now showing the amount
// and currency, Cancel and a close icon. Pay Now checks the form, asks the server for the
// encrypted order and hands the browser to the gateway. Unlike the old site (spec section 8:
// "Payment failure: silent") any failure is said plainly inside the modal and the form is kept.

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Modal } from './dialog';
import { PhoneField } from './phone-field';
import {
  EMPTY_FIELDS,
  FIELD_LABELS,
  FORM_FIELDS,
  PaymentError,
  REQUIRED_FIELDS,
  buildPayload,
  startPayment,
  validateFields,
  type BillingFields,
  type FieldErrors,
  type FieldName,
  type PaymentTarget,
} from './payment';

const AUTOCOMPLETE: Record<FieldName, string> = {
  name: 'name',
  email: 'email',
  phone: 'tel',
  address: 'street-address',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  country: 'country-name',
};

export interface PaymentModalProps {
  /** The full registration form, or name and email only (sponsor orders). */
  kind: 'registration' | 'sponsor';
  /** The dialog's heading, e.g. "Register: Presenter Virtual". */
  title: string;
  /** One line under the heading saying what is bought. */
  summary: ReactNode;
  /** Amount and currency for the Pay Now button, e.g. "USD 219.00" (from server props). */
  amountLabel: string;
  target: PaymentTarget;
  /** Offered in failure messages as a way to reach the organisers. */
  contactEmail?: string;
  returnFocus?: RefObject<HTMLElement | null>;
  onClose: () => void;
  /** Injected by tests; the real one posts and leaves for the gateway. */
  start?: typeof startPayment;
}

type Status = 'idle' | 'sending' | 'leaving';

export function PaymentModal({
  kind,
  title,
  summary,
  amountLabel,
  target,
  contactEmail,
  returnFocus,
  onClose,
  start = startPayment,
}: PaymentModalProps) {
  const uid = useId();
  const id = (part: string) => `${uid}${part}`;
  const [values, setValues] = useState<BillingFields>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string[] | null>(null);
  const [status, setStatus] = useState<Status>('idle');
  const gotchaRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const payRef = useRef<HTMLButtonElement>(null);
  // The dialog opens on the first field rather than on its close icon.
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const fields = FORM_FIELDS[kind];
  const required = new Set(REQUIRED_FIELDS[kind]);

  // Closing the modal while the request is out cancels it: nothing is submitted afterwards.
  useEffect(() => () => abortRef.current?.abort(), []);

  // Coming back from the gateway with the Back button restores this page from the
  // back/forward cache with the modal still "leaving"; make it usable again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setStatus('idle');
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const focusField = (field: FieldName) => document.getElementById(id(field))?.focus();

  const setValue = (field: FieldName, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // An error goes away as soon as the field is edited; it is checked again on Pay Now.
    setErrors((e) => {
      if (!e[field]) return e;
      const { [field]: _gone, ...rest } = e;
      return rest;
    });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle') return;
    const found = validateFields(kind, values);
    setErrors(found);
    setFailure(null);
    const firstInvalid = fields.find((f) => found[f]);
    if (firstInvalid) {
      focusField(firstInvalid);
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setStatus('sending');
    try {
      await start(buildPayload(target, kind, values, gotchaRef.current?.value), { signal: controller.signal });
      setStatus('leaving');
    } catch (error) {
      if (controller.signal.aborted) return;
      setStatus('idle');
      if (error instanceof PaymentError) {
        const serverFields: FieldErrors = {};
        const elsewhere = [...error.otherErrors];
        for (const [field, reason] of Object.entries(error.fieldErrors) as [FieldName, string][]) {
          if (fields.includes(field)) serverFields[field] = reason;
          else elsewhere.push(reason);
        }
        setErrors(serverFields);
        setFailure([error.message, ...elsewhere.filter((m) => m !== error.message)]);
        const first = fields.find((f) => serverFields[f]);
        if (first) setTimeout(() => focusField(first), 0);
        else setTimeout(() => payRef.current?.focus(), 0);
      } else {
        console.warn('[checkout] payment could not start', error);
        setFailure(['The payment could not be started. Please try again.']);
      }
    }
  };

  const busy = status !== 'idle';

  const renderField = (field: FieldName) => {
    const fieldId = id(field);
    const errorId = id(`${field}-error`);
    const isRequired = required.has(field);
    const common = {
      id: fieldId,
      name: field,
      autoComplete: AUTOCOMPLETE[field],
      required: isRequired,
      'aria-required': isRequired || undefined,
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? errorId : undefined,
    };
    return (
      <div className={`field checkout__field checkout__field--${field}`} key={field}>
        <label htmlFor={fieldId}>
          {FIELD_LABELS[field]}
          {isRequired && (
            <span className="checkout__required" aria-hidden="true">
              {' '}*
            </span>
          )}
        </label>
        {field === 'phone' ? (
          <PhoneField
            id={fieldId}
            name={field}
            value={values.phone}
            onChange={(value) => setValue('phone', value)}
            country={values.country}
            required={isRequired}
            invalid={!!errors[field]}
            describedBy={errors[field] ? errorId : undefined}
          />
        ) : (
          <input
            {...common}
            ref={field === fields[0] ? firstFieldRef : undefined}
            type={field === 'email' ? 'email' : 'text'}
            inputMode={field === 'zip' ? 'text' : undefined}
            value={values[field]}
            onChange={(e) => setValue(field, e.target.value)}
          />
        )}
        {errors[field] && (
          <p className="field__error" id={errorId}>
            {errors[field]}
          </p>
        )}
      </div>
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      labelledBy={id('title')}
      describedBy={id('summary')}
      className="checkout"
      // A stray click beside the form must not throw away what was typed.
      closeOnBackdrop={false}
      initialFocus={firstFieldRef}
      returnFocus={returnFocus}
    >
      <div className="checkout__header">
        <h2 className="checkout__title" id={id('title')}>
          {title}
        </h2>
        <button type="button" className="checkout__close" aria-label="Close" onClick={onClose}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <p className="checkout__summary" id={id('summary')}>
        {summary}
      </p>
      <form
        className={`form checkout__form checkout__form--${kind}`}
        noValidate
        onSubmit={onSubmit}
        aria-busy={busy || undefined}
      >
        <p className="checkout__hint">
          Fields marked <span aria-hidden="true">*</span>
          <span className="visually-hidden">with an asterisk</span> are required.
        </p>
        {fields.map(renderField)}
        {/* Honeypot (DESIGN.md section 5): people never see or reach it; bots fill it. */}
        <div className="checkout__gotcha" aria-hidden="true">
          <label htmlFor={id('gotcha')}>Leave this field empty</label>
          <input ref={gotchaRef} id={id('gotcha')} name="_gotcha" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {failure && (
          <div className="checkout__failure" role="alert">
            {failure.map((line) => (
              <p key={line}>{line}</p>
            ))}
            {contactEmail && (
              <p>
                If it keeps failing, write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
              </p>
            )}
          </div>
        )}
        <p className="checkout__status" role="status">
          {status === 'sending' && 'Preparing your secure payment…'}
          {status === 'leaving' && 'Taking you to the secure payment page…'}
        </p>
        <div className="checkout__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            ref={payRef}
            type="submit"
            className="button button--primary checkout__pay"
            aria-disabled={busy || undefined}
          >
            Pay Now {amountLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
