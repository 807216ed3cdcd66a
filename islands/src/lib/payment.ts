// Paying: build the request for POST /api/ccavenue-initiate, send it, and hand the browser to
// the gateway with a real POST form, the way CCAvenue's integration kits do (DESIGN.md
// sections 5 and 6). The browser never sends an amount or a currency: the server prices the
// plan, package or custom amount itself.

import { isPossiblePhoneNumber } from 'react-phone-number-input';

import { isValidEmail } from './validate';

/** What is being paid for: exactly one key, as DESIGN.md section 5 names them. */
export type PaymentTarget = { plan: string } | { customAmount: string } | { sponsorPackage: string };

/** The registration/payment form (spec section 3), keys as the API takes them. */
export interface BillingFields {
  name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export type FieldName = keyof BillingFields;

/** Which form the modal shows: the full registration form, or name and email for a sponsor. */
export type FormKind = 'registration' | 'sponsor';

/** Fields each form shows, in order. The sponsor order has no billing address (spec section 3). */
export const FORM_FIELDS: Record<FormKind, readonly FieldName[]> = {
  registration: ['name', 'email', 'phone', 'address', 'city', 'state', 'zip', 'country'],
  sponsor: ['name', 'email'],
};

/** Required fields (spec section 5: name, email, phone, ZIP Code and country). */
export const REQUIRED_FIELDS: Record<FormKind, readonly FieldName[]> = {
  registration: ['name', 'email', 'phone', 'zip', 'country'],
  sponsor: ['name', 'email'],
};

/** Visible labels, in the spec's wording (spec section 2: Registration modal). */
export const FIELD_LABELS: Record<FieldName, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  city: 'City',
  state: 'State',
  zip: 'ZIP Code',
  country: 'Country',
};

const MISSING: Record<FieldName, string> = {
  name: 'Please enter your name',
  email: 'Please enter your email address',
  phone: 'Please enter your phone number',
  address: 'Please enter your address',
  city: 'Please enter your city',
  state: 'Please enter your state',
  zip: 'Please enter your ZIP code',
  country: 'Please enter your country',
};

/** Field name -> what is wrong with it, as the server's 422 `errors` has it. */
export type FieldErrors = Partial<Record<FieldName, string>>;

export const EMPTY_FIELDS: BillingFields = {
  name: '',
  email: '',
  phone: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  country: '',
};

/** Checks the form before any request: required fields, email shape, a possible phone number. */
export function validateFields(kind: FormKind, values: BillingFields): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of REQUIRED_FIELDS[kind]) {
    if (values[field].trim() === '') errors[field] = MISSING[field];
  }
  if (!errors.email && values.email.trim() !== '' && !isValidEmail(values.email.trim())) {
    errors.email = 'Please enter a valid email address';
  }
  if (
    FORM_FIELDS[kind].includes('phone') &&
    !errors.phone &&
    values.phone.trim() !== '' &&
    !isPossiblePhoneNumber(values.phone.trim())
  ) {
    errors.phone = 'Please enter a valid phone number';
  }
  return errors;
}

/**
 * The JSON body for POST /api/ccavenue-initiate: the target plus the form's own fields,
 * trimmed. Only the fields the form shows are sent; an amount or a currency never is. The
 * honeypot `_gotcha` (DESIGN.md section 5) goes along only when something filled it in.
 */
export function buildPayload(
  target: PaymentTarget,
  kind: FormKind,
  values: BillingFields,
  gotcha?: string,
): Record<string, string> {
  const payload: Record<string, string> = {};
  if ('plan' in target) payload.plan = target.plan;
  else if ('customAmount' in target) payload.customAmount = target.customAmount.trim();
  else payload.sponsorPackage = target.sponsorPackage;
  for (const field of FORM_FIELDS[kind]) payload[field] = values[field].trim();
  if (gotcha) payload._gotcha = gotcha;
  return payload;
}

/** The server's answer to a successful initiate (DESIGN.md section 5). */
export interface GatewayHandOff {
  orderId: string;
  encRequest: string;
  accessCode: string;
  gatewayUrl: string;
}

/** Why a payment could not start: a message for the modal, and field errors from a 422. */
export class PaymentError extends Error {
  readonly fieldErrors: FieldErrors;
  /** Errors the server gave for keys the form has no field for (e.g. `customAmount`). */
  readonly otherErrors: string[];
  readonly status: number | null;

  constructor(message: string, status: number | null, fieldErrors: FieldErrors = {}, otherErrors: string[] = []) {
    super(message);
    this.name = 'PaymentError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.otherErrors = otherErrors;
  }
}

export const MESSAGES = {
  network: 'We could not reach the server. Please check your internet connection and try again.',
  server: 'The payment could not be started because of a problem on our side. Please try again in a few minutes.',
  invalid: 'Please check the highlighted fields and try again.',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
  forbidden: 'This page could not start the payment. Please reload it and try again.',
  badAnswer: 'The payment service gave an answer we could not use. Please try again in a few minutes.',
} as const;

const FIELD_NAMES = new Set<string>(Object.keys(EMPTY_FIELDS));

/** Turns a non-2xx answer into a [`PaymentError`], keeping the server's field errors. */
export async function errorFromResponse(response: Response): Promise<PaymentError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status decides the message.
  }
  const message =
    body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? ((body as { message: string }).message)
      : '';
  const rawErrors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  const fieldErrors: FieldErrors = {};
  const otherErrors: string[] = [];
  if (rawErrors && typeof rawErrors === 'object') {
    for (const [key, reason] of Object.entries(rawErrors as Record<string, unknown>)) {
      if (typeof reason !== 'string') continue;
      if (FIELD_NAMES.has(key)) fieldErrors[key as FieldName] = reason;
      else otherErrors.push(reason);
    }
  }
  const status = response.status;
  if (status === 422 || status === 400) {
    return new PaymentError(message || MESSAGES.invalid, status, fieldErrors, otherErrors);
  }
  if (status === 429) return new PaymentError(message || MESSAGES.tooMany, status);
  if (status === 403) return new PaymentError(MESSAGES.forbidden, status);
  if (status >= 500) return new PaymentError(MESSAGES.server, status);
  return new PaymentError(message || MESSAGES.server, status);
}

function isHandOff(value: unknown): value is GatewayHandOff {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.orderId === 'string' &&
    typeof v.encRequest === 'string' &&
    v.encRequest !== '' &&
    typeof v.accessCode === 'string' &&
    typeof v.gatewayUrl === 'string' &&
    v.gatewayUrl !== ''
  );
}

/** The gateway address as an absolute http(s) URL, or null (never `javascript:` and the like). */
export function gatewayAction(gatewayUrl: string, base: string): string | null {
  try {
    const url = new URL(gatewayUrl, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export const INITIATE_URL = '/api/ccavenue-initiate';

/** Asks the server to create the order. Rejects with a [`PaymentError`] (or an AbortError). */
export async function requestPayment(
  payload: Record<string, string>,
  options: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<GatewayHandOff> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(INITIATE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(payload),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new PaymentError(MESSAGES.network, null);
  }
  if (!response.ok) throw await errorFromResponse(response);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new PaymentError(MESSAGES.badAnswer, response.status);
  }
  if (!isHandOff(body)) throw new PaymentError(MESSAGES.badAnswer, response.status);
  return body;
}

/**
 * Builds `<form method="post" action=gatewayUrl>` with hidden `encRequest` and `access_code`
 * (the names CCAvenue's kits post), adds it to the page and submits it: the browser leaves
 * for the gateway with the cipher text in the body, not in the address.
 */
export function submitToGateway(handOff: GatewayHandOff, doc: Document = document): HTMLFormElement {
  const action = gatewayAction(handOff.gatewayUrl, doc.baseURI);
  if (!action) throw new PaymentError(MESSAGES.badAnswer, null);
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = action;
  form.hidden = true;
  form.setAttribute('data-gateway-form', '');
  for (const [name, value] of [
    ['encRequest', handOff.encRequest],
    ['access_code', handOff.accessCode],
  ]) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
  return form;
}

/** POSTs the payload, then hands the browser to the gateway. Rejects like [`requestPayment`]. */
export async function startPayment(
  payload: Record<string, string>,
  options: { fetch?: typeof fetch; signal?: AbortSignal; document?: Document } = {},
): Promise<GatewayHandOff> {
  const handOff = await requestPayment(payload, options);
  if (options.signal?.aborted) throw new DOMException('The payment was cancelled', 'AbortError');
  submitToGateway(handOff, options.document ?? document);
  return handOff;
}
