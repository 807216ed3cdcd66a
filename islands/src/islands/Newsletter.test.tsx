// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Newsletter, { FAILED_MESSAGE, SUBSCRIBED_MESSAGE, validateNewsletterEmail } from './Newsletter';
import { serverRendered, stubFetch, templatePart, toastText } from '../test-utils';

const FALLBACK_FORM = templatePart('partials/footer.html', /<form class="newsletter"[\s\S]*?<\/form>/);

const input = () => screen.getByLabelText('Email address') as HTMLInputElement;
const status = () => screen.getByRole('status');

/** Puts the footer form on the page, types the address into it, then mounts the island. */
async function mount(typed = '') {
  const user = userEvent.setup();
  const container = serverRendered(FALLBACK_FORM);
  if (typed) await user.type(input(), typed);
  render(<Newsletter />, { container });
  const submit = () => user.click(screen.getByRole('button', { name: 'Subscribe' }));
  return { user, container, submit };
}

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
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
    const { container } = await mount('typed@example.org');
    expect(input().value).toBe('typed@example.org');
    expect(input().getAttribute('type')).toBe('email');
    expect(input().labels?.[0]?.textContent).toBe('Email address');
    expect(container.querySelector('input[name="_gotcha"]')).not.toBeNull();
    expect(screen.getByRole('button').textContent).toBe('Subscribe');
  });

  it('refuses a malformed address without sending it', async () => {
    const fetch = stubFetch(201, {});
    const { submit } = await mount('ana@');
    await submit();
    expect(fetch).not.toHaveBeenCalled();
    expect(status().textContent).toBe('Please enter a valid email address');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().value).toBe('ana@');
  });

  it('clears the box and confirms with the server message', async () => {
    const fetch = stubFetch(201, { message: SUBSCRIBED_MESSAGE });
    const { submit } = await mount(' ana@example.org ');
    await submit();
    await waitFor(() => expect(status().textContent).toBe(SUBSCRIBED_MESSAGE));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/newsletter');
    expect(JSON.parse(init!.body as string)).toEqual({ email: 'ana@example.org', _gotcha: '' });
    expect(input().value).toBe('');
    expect(status().textContent).toMatch(/^Thank you for subscribing!\nPlease confirm .* emailed you\.$/);
    await waitFor(() => expect(toastText()).toContain('Thank you for subscribing!'));
  });

  it('says when the address was already there', async () => {
    stubFetch(200, { message: 'You are already subscribed.' });
    const { submit } = await mount('ana@example.org');
    await submit();
    await waitFor(() => expect(status().textContent).toBe('You are already subscribed.'));
    expect(input().value).toBe('');
  });

  it('keeps the address and says so when the server fails', async () => {
    stubFetch(503, { message: 'down' });
    const { submit } = await mount('ana@example.org');
    await submit();
    await waitFor(() => expect(status().textContent).toBe(FAILED_MESSAGE));
    expect(input().value).toBe('ana@example.org');
    await waitFor(() => expect(toastText()).toContain(FAILED_MESSAGE));
  });
});
