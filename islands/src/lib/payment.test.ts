// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EMPTY_FIELDS,
  INITIATE_URL,
  MESSAGES,
  PaymentError,
  buildPayload,
  gatewayAction,
  requestPayment,
  startPayment,
  submitToGateway,
  validateFields,
  type BillingFields,
  type GatewayHandOff,
} from './payment';

const FILLED: BillingFields = {
  name: '  Ada Lovelace ',
  email: 'ada@example.org',
  phone: '+12015550123',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'United States',
};

const HAND_OFF: GatewayHandOff = {
  orderId: 'ORD1741234567890AB12',
  encRequest: 'a1b2c3',
  accessCode: 'TESTACCESS',
  gatewayUrl: '/test-gateway',
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('buildPayload', () => {
  it('sends the plan and the billing fields, trimmed, and never an amount or a currency', () => {
    const payload = buildPayload({ plan: 'presenter-virtual' }, 'registration', FILLED);
    expect(payload).toEqual({
      plan: 'presenter-virtual',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      phone: '+12015550123',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'United States',
    });
    expect(Object.keys(payload)).not.toContain('amount');
    expect(Object.keys(payload)).not.toContain('currency');
  });

  it('sends a custom amount as the exact text typed, not a float and not the total', () => {
    const payload = buildPayload({ customAmount: ' 33.335 ' }, 'registration', FILLED);
    expect(payload.customAmount).toBe('33.335');
    expect(payload).not.toHaveProperty('amount');
    expect(payload).not.toHaveProperty('total');
    expect(payload).not.toHaveProperty('currency');
  });

  it('sends only name and email with a sponsor package', () => {
    expect(buildPayload({ sponsorPackage: 'gold' }, 'sponsor', FILLED)).toEqual({
      sponsorPackage: 'gold',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
    });
  });

  it('sends the honeypot only when something filled it', () => {
    expect(buildPayload({ plan: 'listener-virtual' }, 'registration', FILLED, '')).not.toHaveProperty('_gotcha');
    expect(buildPayload({ plan: 'listener-virtual' }, 'registration', FILLED, 'spam')._gotcha).toBe('spam');
  });
});

describe('validateFields', () => {
  it('requires name, email, phone, ZIP Code and country, and nothing else', () => {
    expect(validateFields('registration', EMPTY_FIELDS)).toEqual({
      name: 'Please enter your name',
      email: 'Please enter your email address',
      phone: 'Please enter your phone number',
      zip: 'Please enter your ZIP code',
      country: 'Please enter your country',
    });
    const { address: _a, city: _c, state: _s, ...required } = FILLED;
    expect(validateFields('registration', { ...EMPTY_FIELDS, ...required })).toEqual({});
  });

  it('counts blanks as missing', () => {
    expect(validateFields('registration', { ...FILLED, name: '   ' })).toEqual({ name: 'Please enter your name' });
  });

  it('checks the email address and the phone number', () => {
    expect(validateFields('registration', { ...FILLED, email: 'ada@example' })).toEqual({
      email: 'Please enter a valid email address',
    });
    expect(validateFields('registration', { ...FILLED, phone: '+1201' })).toEqual({
      phone: 'Please enter a valid phone number',
    });
  });

  it('asks a sponsor only for name and email', () => {
    expect(validateFields('sponsor', EMPTY_FIELDS)).toEqual({
      name: 'Please enter your name',
      email: 'Please enter your email address',
    });
    expect(validateFields('sponsor', { ...EMPTY_FIELDS, name: 'Acme', email: 'pay@acme.test' })).toEqual({});
  });
});

describe('requestPayment', () => {
  it('POSTs the payload as JSON to /api/ccavenue-initiate and returns the hand-off', async () => {
    const fetch = vi.fn(async () => jsonResponse(201, HAND_OFF));
    const payload = buildPayload({ plan: 'presenter-virtual' }, 'registration', FILLED);
    await expect(requestPayment(payload, { fetch })).resolves.toEqual(HAND_OFF);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(INITIATE_URL);
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual(payload);
  });

  it('keeps the field errors of a 422, and the ones the form has no field for', async () => {
    const fetch = vi.fn(async () =>
      jsonResponse(422, {
        message: 'Please check the highlighted fields and try again.',
        errors: { email: 'Please enter a valid email address', customAmount: 'Please enter a valid amount' },
      }),
    );
    const error = (await requestPayment({}, { fetch }).catch((e) => e)) as PaymentError;
    expect(error).toBeInstanceOf(PaymentError);
    expect(error.status).toBe(422);
    expect(error.message).toBe('Please check the highlighted fields and try again.');
    expect(error.fieldErrors).toEqual({ email: 'Please enter a valid email address' });
    expect(error.otherErrors).toEqual(['Please enter a valid amount']);
  });

  it.each([
    [500, { message: 'Something went wrong on our side. Please try again later.' }, MESSAGES.server],
    [502, 'Bad gateway', MESSAGES.server],
    [429, { message: 'Too many requests. Please wait a minute.' }, 'Too many requests. Please wait a minute.'],
    [429, 'nope', MESSAGES.tooMany],
    [403, { message: 'Forbidden' }, MESSAGES.forbidden],
  ])('a %i answer says so clearly', async (status, body, message) => {
    const fetch = vi.fn(async () =>
      typeof body === 'string' ? new Response(body, { status }) : jsonResponse(status, body),
    );
    await expect(requestPayment({}, { fetch })).rejects.toMatchObject({ name: 'PaymentError', message, status });
  });

  it('says when the server cannot be reached', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(requestPayment({}, { fetch })).rejects.toMatchObject({ message: MESSAGES.network, status: null });
  });

  it('refuses an answer without the cipher text or the gateway address', async () => {
    for (const body of [{}, { ...HAND_OFF, encRequest: '' }, { ...HAND_OFF, gatewayUrl: 42 }, 'not json']) {
      const fetch = vi.fn(async () =>
        typeof body === 'string' ? new Response(body, { status: 201 }) : jsonResponse(201, body),
      );
      await expect(requestPayment({}, { fetch })).rejects.toMatchObject({ message: MESSAGES.badAnswer });
    }
  });

  it('lets an abort through as an abort', async () => {
    const fetch = vi.fn(async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(requestPayment({}, { fetch })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the gateway hand-off', () => {
  it('POSTs encRequest and access_code from a form to the gateway', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const form = submitToGateway({ ...HAND_OFF, gatewayUrl: 'https://secure.ccavenue.test/transaction.do?command=initiateTransaction' });
    expect(submit).toHaveBeenCalledTimes(1);
    expect(form.isConnected).toBe(true);
    expect(form.method).toBe('post');
    expect(form.getAttribute('action')).toBe('https://secure.ccavenue.test/transaction.do?command=initiateTransaction');
    const fields = Array.from(form.querySelectorAll('input'), (i) => [i.type, i.name, i.value]);
    expect(fields).toEqual([
      ['hidden', 'encRequest', 'a1b2c3'],
      ['hidden', 'access_code', 'TESTACCESS'],
    ]);
  });

  it('accepts the test gateway path relative to the site', () => {
    expect(gatewayAction('/test-gateway', 'http://127.0.0.1:3000/pricing')).toBe('http://127.0.0.1:3000/test-gateway');
  });

  it('never submits to a script address', () => {
    expect(gatewayAction('javascript:alert(1)', 'http://127.0.0.1:3000/')).toBeNull();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    expect(() => submitToGateway({ ...HAND_OFF, gatewayUrl: 'javascript:alert(1)' })).toThrow(PaymentError);
    expect(submit).not.toHaveBeenCalled();
  });

  it('startPayment requests, then submits; a failed request submits nothing', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await startPayment({ plan: 'gold' }, { fetch: vi.fn(async () => jsonResponse(201, HAND_OFF)) });
    expect(submit).toHaveBeenCalledTimes(1);
    await expect(
      startPayment({ plan: 'gold' }, { fetch: vi.fn(async () => jsonResponse(500, {})) }),
    ).rejects.toBeInstanceOf(PaymentError);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('submits nothing when the modal was closed while the request was out', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const controller = new AbortController();
    const fetch = vi.fn(async () => {
      controller.abort();
      return jsonResponse(201, HAND_OFF);
    });
    await expect(startPayment({ plan: 'gold' }, { fetch, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(submit).not.toHaveBeenCalled();
  });
});
