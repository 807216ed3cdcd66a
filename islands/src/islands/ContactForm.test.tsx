// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import ContactForm, { ERROR_MESSAGE, SENT_MESSAGE, validateContact, type ContactValues } from './ContactForm';
import { descriptionOf, serverRendered, stubFetch, templatePart, toastText } from '../test-utils';

// The server's fallback form, straight from the template the island replaces.
const FALLBACK_FORM = templatePart('partials/contact_form.html', /<form class="form contact-form"[\s\S]*?<\/form>/);

const GOOD: ContactValues = {
  name: 'Ana Cruz',
  number: '+15551234567',
  email: 'ana@example.org',
  country: 'Philippines',
  message: 'Hello there',
};

/** The visible label of each field. */
const LABELS: Record<keyof ContactValues, string> = {
  name: 'Name',
  number: 'Phone / Whatsapp.no',
  email: 'Email address',
  country: 'Country',
  message: 'Message',
};

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

const field = (name: keyof ContactValues) => screen.getByLabelText(LABELS[name]) as HTMLInputElement | HTMLTextAreaElement;

/** Puts the server form on the page, types into it as a visitor would, then mounts the island. */
async function mount(typed: Partial<ContactValues> = {}) {
  const user = userEvent.setup();
  const container = serverRendered(FALLBACK_FORM);
  for (const [name, value] of Object.entries(typed)) await user.type(field(name as keyof ContactValues), value);
  render(<ContactForm />, { container });
  return { user, container };
}

const submit = (user: UserEvent) => user.click(screen.getByRole('button', { name: 'Submit' }));

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
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
    const { container } = await mount();
    expect(shape(container)).toEqual(shape(fallback));
    expect(field('number').getAttribute('type')).toBe('tel');
    expect(screen.getByRole('combobox', { name: 'Phone number country' }).tagName).toBe('SELECT');
  });

  it('keeps what was typed into the fallback before it mounted', async () => {
    await mount({ name: 'Ana', number: '(555) 123-4567', message: 'Half written' });
    expect(field('name').value).toBe('Ana');
    expect(field('message').value).toBe('Half written');
    expect(field('number').value.replace(/\D/g, '')).toContain('5551234567');
  });

  it('sends nothing and shows each problem under its field when the form is incomplete', async () => {
    const fetch = stubFetch(201, { id: 'x' });
    const { user } = await mount({ name: 'Ana', email: 'ana@example' });
    await submit(user);
    expect(fetch).not.toHaveBeenCalled();
    expect(field('email').getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(field('email'))).toBe('Please enter a valid email address');
    expect(descriptionOf(field('country'))).toBe('Country is required');
    expect(document.activeElement).toBe(field('number'));
    expect(field('name').value).toBe('Ana');
  });

  it('posts the trimmed fields with the honeypot, then clears the form and says so', async () => {
    const fetch = stubFetch(201, { id: 'abc' });
    const { user } = await mount({ ...GOOD, name: '  Ana Cruz ', number: '+1 555 123 4567' });
    await submit(user);
    await waitFor(() => expect(toastText()).toContain(SENT_MESSAGE));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/contact');
    expect(JSON.parse(init!.body as string)).toEqual({ ...GOOD, _gotcha: '' });
    for (const name of ['name', 'email', 'country', 'message'] as const) expect(field(name).value).toBe('');
  });

  it('keeps the form and shows the error toast when the server fails', async () => {
    stubFetch(500, { message: 'Something went wrong on our side. Please try again later.' });
    const { user } = await mount(GOOD);
    await submit(user);
    await waitFor(() => expect(toastText()).toContain(ERROR_MESSAGE));
    expect(field('name').value).toBe('Ana Cruz');
    expect(field('message').value).toBe('Hello there');
  });

  it("shows the server's field errors of a 422", async () => {
    stubFetch(422, { message: 'Country must be at most 80 characters', errors: { country: 'Country must be at most 80 characters' } });
    const { user } = await mount(GOOD);
    await submit(user);
    await waitFor(() => expect(toastText()).toContain(ERROR_MESSAGE));
    expect(descriptionOf(field('country'))).toBe('Country must be at most 80 characters');
  });
});

describe('ContactForm phone country (issue 42 item 4)', () => {
  it('follows the Country typed while the phone picker is untouched, and stays US without one', async () => {
    const user = userEvent.setup();
    render(<ContactForm />);
    const picker = () => screen.getByRole('combobox', { name: 'Phone number country' }) as HTMLSelectElement;
    expect(picker().value).toBe('US');
    await user.type(screen.getByLabelText('Country'), 'Philippines');
    expect(picker().value).toBe('PH');
    await user.clear(screen.getByLabelText('Country'));
    await user.type(screen.getByLabelText('Country'), 'Atlantis');
    expect(picker().value).toBe('US');
  });

  it('keeps the phone country the visitor chose', async () => {
    const user = userEvent.setup();
    render(<ContactForm />);
    const picker = () => screen.getByRole('combobox', { name: 'Phone number country' }) as HTMLSelectElement;
    await user.selectOptions(picker(), 'GB');
    await user.type(screen.getByLabelText('Country'), 'Philippines');
    expect(picker().value).toBe('GB');
  });
});
