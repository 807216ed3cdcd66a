// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import ContactForm, { ERROR_MESSAGE, SENT_MESSAGE, validateContact, type ContactValues } from './ContactForm';
import { TOAST_HOST_ID } from '../lib/toasts';

// The server's fallback form, straight from the template the island replaces.
const TEMPLATE = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../templates/partials/contact_form.html'), 'utf8');
const FALLBACK_FORM = TEMPLATE.match(/<form class="form contact-form"[\s\S]*?<\/form>/)![0];

const GOOD: ContactValues = {
  name: 'Ana Cruz',
  number: '+15551234567',
  email: 'ana@example.org',
  country: 'Philippines',
  message: 'Hello there',
};

let root: Root | undefined;
let el: HTMLElement;

/** Controls as (tag, id, name, required) and labels, to compare island and fallback. */
function shape(scope: ParentNode) {
  const controls = Array.from(scope.querySelectorAll('input:not(.PhoneInputCountrySelect), textarea'), (c) => [
    c.tagName.toLowerCase(),
    c.id,
    c.getAttribute('name'),
    c.hasAttribute('required'),
  ]);
  const labels = Array.from(scope.querySelectorAll('label'), (l) => [l.getAttribute('for'), l.textContent]);
  return { controls, labels };
}

const control = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement;
const toastText = () => document.getElementById(TOAST_HOST_ID)?.textContent ?? '';

async function mount(typed: Partial<ContactValues> = {}) {
  el = document.createElement('div');
  el.innerHTML = FALLBACK_FORM;
  document.body.append(el);
  for (const [field, value] of Object.entries(typed)) control(`contact-${field}`).value = value;
  root = createRoot(el);
  await act(async () => root!.render(<ContactForm />));
}

async function submit() {
  const form = el.querySelector('form')!;
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
  // Let the answer's promise chain settle inside act.
  await act(async () => {});
}

function stubFetch(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('validateContact', () => {
  it('names every missing field with the server messages', () => {
    expect(validateContact({ name: '', number: '', email: ' ', country: '', message: '' })).toEqual({
      name: 'Name is required',
      number: 'Phone / Whatsapp.no is required',
      email: 'Email address is required',
      country: 'Country is required',
      message: 'Message is required',
    });
  });

  it('checks the email and phone formats and the length bounds', () => {
    expect(validateContact({ ...GOOD, email: 'ana@example' })).toEqual({ email: 'Please enter a valid email address' });
    expect(validateContact({ ...GOOD, number: '+1 23' })).toEqual({ number: 'Please enter a valid phone number' });
    expect(validateContact({ ...GOOD, name: 'n'.repeat(121) })).toEqual({ name: 'Name must be at most 120 characters' });
    expect(validateContact({ ...GOOD, message: 'ü'.repeat(5000) })).toEqual({});
    expect(validateContact(GOOD)).toEqual({});
  });
});

describe('ContactForm', () => {
  it('renders the controls and labels of the server fallback', async () => {
    const fallback = document.createElement('div');
    fallback.innerHTML = FALLBACK_FORM;
    await mount();
    expect(shape(el)).toEqual(shape(fallback));
    expect(control('contact-number').getAttribute('type')).toBe('tel');
    expect(el.querySelector('select')?.getAttribute('aria-label')).toBe('Phone number country');
  });

  it('keeps what was typed into the fallback before it mounted', async () => {
    await mount({ name: 'Ana', number: '(555) 123-4567', message: 'Half written' });
    expect(control('contact-name').value).toBe('Ana');
    expect(control('contact-message').value).toBe('Half written');
    expect(control('contact-number').value.replace(/\D/g, '')).toContain('5551234567');
  });

  it('sends nothing and shows each problem under its field when the form is incomplete', async () => {
    const fetch = stubFetch(201, { id: 'x' });
    await mount({ name: 'Ana', email: 'ana@example' });
    await submit();
    expect(fetch).not.toHaveBeenCalled();
    expect(control('contact-email').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('contact-email-error')?.textContent).toBe('Please enter a valid email address');
    expect(document.getElementById('contact-country-error')?.textContent).toBe('Country is required');
    expect(document.activeElement?.id).toBe('contact-number');
    expect(control('contact-name').value).toBe('Ana');
  });

  it('posts the trimmed fields with the honeypot, then clears the form and says so', async () => {
    const fetch = stubFetch(201, { id: 'abc' });
    await mount({ ...GOOD, name: '  Ana Cruz ', number: '+1 555 123 4567' });
    await submit();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(JSON.parse(init.body as string)).toEqual({ ...GOOD, _gotcha: '' });
    for (const field of ['name', 'email', 'country', 'message']) expect(control(`contact-${field}`).value).toBe('');
    expect(toastText()).toContain(SENT_MESSAGE);
  });

  it('keeps the form and shows the error toast when the server fails', async () => {
    stubFetch(500, { message: 'Something went wrong on our side. Please try again later.' });
    await mount(GOOD);
    await submit();
    expect(control('contact-name').value).toBe('Ana Cruz');
    expect(control('contact-message').value).toBe('Hello there');
    expect(toastText()).toContain(ERROR_MESSAGE);
  });

  it("shows the server's field errors of a 422", async () => {
    stubFetch(422, { message: 'Country must be at most 80 characters', errors: { country: 'Country must be at most 80 characters' } });
    await mount(GOOD);
    await submit();
    expect(document.getElementById('contact-country-error')?.textContent).toBe('Country must be at most 80 characters');
    expect(toastText()).toContain(ERROR_MESSAGE);
  });
});
