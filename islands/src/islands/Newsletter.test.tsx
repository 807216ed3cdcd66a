// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import Newsletter, { FAILED_MESSAGE, SUBSCRIBED_MESSAGE, validateNewsletterEmail } from './Newsletter';
import { TOAST_HOST_ID } from '../lib/toasts';

const TEMPLATE = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../templates/partials/footer.html'), 'utf8');
const FALLBACK_FORM = TEMPLATE.match(/<form class="newsletter"[\s\S]*?<\/form>/)![0];

let root: Root | undefined;
let el: HTMLElement;
const input = () => document.getElementById('newsletter-email') as HTMLInputElement;
const status = () => document.getElementById('newsletter-status')!;
const toastText = () => document.getElementById(TOAST_HOST_ID)?.textContent ?? '';

async function mount(typed = '') {
  el = document.createElement('div');
  el.innerHTML = FALLBACK_FORM;
  document.body.append(el);
  input().value = typed;
  root = createRoot(el);
  await act(async () => root!.render(<Newsletter />));
}

async function submit() {
  await act(async () => {
    el.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
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

describe('validateNewsletterEmail', () => {
  it('uses the server messages', () => {
    expect(validateNewsletterEmail('  ')).toBe('Email address is required');
    expect(validateNewsletterEmail('ana@example')).toBe('Please enter a valid email address');
    expect(validateNewsletterEmail(' ana@example.org ')).toBeNull();
  });
});

describe('Newsletter', () => {
  it('has the fallback form controls, and keeps a typed address', async () => {
    await mount('typed@example.org');
    expect(input().value).toBe('typed@example.org');
    expect(input().getAttribute('type')).toBe('email');
    expect(el.querySelector('label[for="newsletter-email"]')?.textContent).toBe('Email address');
    expect(el.querySelector('input[name="_gotcha"]')).not.toBeNull();
    expect(el.querySelector('button')?.textContent).toBe('Subscribe');
  });

  it('refuses a malformed address without sending it', async () => {
    const fetch = stubFetch(201, {});
    await mount('ana@');
    await submit();
    expect(fetch).not.toHaveBeenCalled();
    expect(status().textContent).toBe('Please enter a valid email address');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().value).toBe('ana@');
  });

  it('clears the box and confirms with the server message', async () => {
    const fetch = stubFetch(201, { message: SUBSCRIBED_MESSAGE });
    await mount(' ana@example.org ');
    await submit();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/newsletter');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'ana@example.org', _gotcha: '' });
    expect(input().value).toBe('');
    expect(status().textContent).toBe(SUBSCRIBED_MESSAGE);
    expect(status().textContent).toMatch(/^Thank you for subscribing!\nPlease confirm .* emailed you\.$/);
    expect(toastText()).toContain('Thank you for subscribing!');
  });

  it('says when the address was already there', async () => {
    stubFetch(200, { message: 'You are already subscribed.' });
    await mount('ana@example.org');
    await submit();
    expect(input().value).toBe('');
    expect(status().textContent).toBe('You are already subscribed.');
  });

  it('keeps the address and says so when the server fails', async () => {
    stubFetch(503, { message: 'down' });
    await mount('ana@example.org');
    await submit();
    expect(input().value).toBe('ana@example.org');
    expect(status().textContent).toBe(FAILED_MESSAGE);
    expect(toastText()).toContain(FAILED_MESSAGE);
  });
});
