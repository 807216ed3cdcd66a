// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import PaperForm from './PaperForm';
import type { XhrLike } from '../lib/paperUpload';
import { descriptionOf, serverRendered, templatePart, toastText } from '../test-utils';

// The server's form, straight from the template the island replaces, with askama's option
// loop written out the way the server renders it.
const SOURCES: Array<[string, string]> = [
  ['conference-alerts', 'Conference Alerts'],
  ['email', 'Email'],
  ['linkedin', 'LinkedIn'],
  ['others', 'Others'],
];
const FALLBACK_FORM = templatePart('pages/submission.html', /<form class="form paper-form"[\s\S]*?<\/form>/)
  .replace(/\{%-? for[\s\S]*?endfor %\}/, SOURCES.map(([v, l]) => `<option value="${v}">${l}</option>`).join(''))
  .replace(/\{\{[^}]*\}\}/g, '20 MB');
const MAX_BYTES = 20 * 1024 * 1024;

class FakeXhr implements XhrLike {
  static last: FakeXhr | null = null;
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: XhrLike['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open() {}
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
}

let container: HTMLElement;

const field = <T extends HTMLElement = HTMLInputElement>(label: string) => screen.getByLabelText(label) as T;
const source = () => field<HTMLSelectElement>('How did you hear about the conference?');
// The form's summary line and the chosen file's line have no accessible name of their own.
const statusText = () => container.querySelector('.paper-form__status')?.textContent ?? null;
const chosenFile = () => container.querySelector('.paper-drop__file')?.textContent ?? null;
const pdf = () => new File(['%PDF-1.4\n%%EOF\n'], 'paper.pdf', { type: 'application/pdf' });

/** Puts the server form on the page, lets `prepare` fill it as a visitor would before the
 *  island loads, then mounts the island over it. */
async function mount(prepare: (user: UserEvent) => Promise<void> = async () => {}) {
  const user = userEvent.setup();
  container = serverRendered(FALLBACK_FORM, { 'data-island': 'PaperForm' });
  await prepare(user);
  render(<PaperForm sources={SOURCES} maxBytes={MAX_BYTES} makeXhr={() => new FakeXhr()} />, { container });
  const submit = () => user.click(screen.getByRole('button', { name: 'Submit paper' }));
  return { user, submit };
}

/** Fills the server form as a visitor would have before the island mounted. */
async function typeEverything(user: UserEvent) {
  const values: Record<string, string> = {
    'Author name': 'Ana Cruz',
    'Co-author name(s)': 'Ben Reyes',
    Phone: '+639171234567',
    'Email address': 'ana@example.org',
    Country: 'Philippines',
    'Paper title': 'Solar microgrids',
    Department: 'Engineering',
    'University / Organization': 'University of Manila',
    Message: 'Hello',
  };
  for (const [label, value] of Object.entries(values)) await user.type(field(label), value);
  await user.selectOptions(source(), 'LinkedIn');
  await user.click(field('Full Paper'));
  await user.click(field('Oral'));
  await user.upload(field('Paper file'), pdf());
}

/** The server's answer to the upload under way (the fake request's load event, hence act). */
async function answer(status: number, body: unknown) {
  const xhr = FakeXhr.last!;
  await act(async () => {
    xhr.status = status;
    xhr.responseText = JSON.stringify(body);
    xhr.onload!();
  });
}

beforeEach(() => {
  FakeXhr.last = null;
});
afterEach(() => {
  cleanup();
  document.body.replaceChildren();
});

/** Field names, labels and legends: what must not change when the island mounts. */
function shape(scope: ParentNode) {
  const names = Array.from(scope.querySelectorAll('input:not(.PhoneInputCountrySelect), select:not(.PhoneInputCountrySelect), textarea'), (c) =>
    c.getAttribute('name'),
  );
  const labels = Array.from(scope.querySelectorAll('label, legend'), (l) => l.textContent!.trim());
  return { names: [...new Set(names)], labels };
}

describe('PaperForm markup', () => {
  it('has the fields, labels and options of the server form', async () => {
    const fallback = document.createElement('div');
    fallback.innerHTML = FALLBACK_FORM;
    const expected = shape(fallback);
    await mount();
    expect(shape(container)).toEqual(expected);
    expect(field('Phone').getAttribute('type')).toBe('tel');
    expect(Array.from(source().options, (o) => o.textContent)).toEqual([
      'Select an option',
      ...SOURCES.map(([, label]) => label),
    ]);
    expect(chosenFile()).toBe('No file chosen');
  });

  it('keeps what was typed into the server form before it mounted', async () => {
    await mount(typeEverything);
    expect(field('Author name').value).toBe('Ana Cruz');
    expect(source().value).toBe('linkedin');
    expect(field('Full Paper').checked).toBe(true);
    expect(chosenFile()).toBe('Selected: paper.pdf (15 bytes)');
  });
});

describe('PaperForm submitting', () => {
  it('says the first problem in the spec order and sends nothing', async () => {
    const { submit } = await mount();
    await submit();
    expect(statusText()).toBe('Please upload your paper file');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose file' }));
    expect(FakeXhr.last).toBeNull();
  });

  it('uploads with a progress bar, toasts twice and resets on success', async () => {
    const { submit } = await mount(typeEverything);
    await submit();
    const xhr = FakeXhr.last!;
    expect(xhr.body!.get('authorName')).toBe('Ana Cruz');
    expect(xhr.body!.get('paperType')).toBe('Full Paper');
    expect((xhr.body!.get('file') as File).name).toBe('paper.pdf');
    expect(xhr.body!.has('_gotcha')).toBe(false);

    // The fake request's progress event, outside any user action, hence act.
    await act(async () => xhr.upload.onprogress!({ lengthComputable: true, loaded: 40, total: 100 }));
    const bar = within(container).getByRole('progressbar', { name: 'Uploading your paper: 40%' }) as HTMLProgressElement;
    expect(bar.value).toBe(40);

    await answer(201, { id: 1, reference: 'P-2025-ABC234' });
    await waitFor(() => expect(toastText()).toContain('Paper submitted successfully!'));
    expect(toastText()).toContain('Our coordinator will contact you within 24-48 hours');
    expect(within(container).queryByRole('progressbar')).toBeNull(); // the toasts have their own
    expect(field('Author name').value).toBe('');
    expect(source().value).toBe('');
    expect(chosenFile()).toBe('No file chosen');
  });

  it('shows the reference of the paper it just sent, beside the spec\'s toasts, until the next attempt', async () => {
    const { submit } = await mount(typeEverything);
    await submit();
    await answer(201, { id: 1, reference: 'P-2025-ABC234' });
    await waitFor(() => expect(toastText()).toContain('Paper submitted successfully!'));
    expect(screen.getByRole('status').textContent).toBe(
      'Your paper is received. Its reference is P-2025-ABC234. We have mailed you a link to follow its status.',
    );
    await submit();
    expect(container.querySelector('.paper-form__received')).toBeNull();
  });

  it('keeps the form and shows what the server refused', async () => {
    const { submit } = await mount(typeEverything);
    await submit();
    await answer(422, { message: 'Please enter a valid email address', errors: { email: 'Please enter a valid email address' } });
    await waitFor(() => expect(toastText()).toContain('Error submitting form. Please try again.'));
    expect(statusText()).toBe('Please enter a valid email address');
    expect(field('Email address').getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(field('Email address'))).toBe('Please enter a valid email address');
    expect(field('Author name').value).toBe('Ana Cruz');
    expect(chosenFile()).toContain('paper.pdf');
  });
});
