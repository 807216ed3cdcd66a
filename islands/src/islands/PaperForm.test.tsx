// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import PaperForm from './PaperForm';
import type { XhrLike } from '../lib/paperUpload';
import { TOAST_HOST_ID } from '../lib/toasts';

// The server's form, straight from the template the island replaces, with askama's option
// loop written out the way the server renders it.
const TEMPLATE = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../templates/pages/submission.html'), 'utf8');
const SOURCES: Array<[string, string]> = [
  ['conference-alerts', 'Conference Alerts'],
  ['email', 'Email'],
  ['linkedin', 'LinkedIn'],
  ['others', 'Others'],
];
const FALLBACK_FORM = TEMPLATE.match(/<form class="form paper-form"[\s\S]*?<\/form>/)![0]
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

let root: Root | undefined;
let el: HTMLElement;

const byId = <T extends HTMLElement = HTMLInputElement>(id: string) => document.getElementById(id) as T;
const statusText = () => el.querySelector('.paper-form__status')?.textContent ?? null;
const toastText = () => document.getElementById(TOAST_HOST_ID)?.textContent ?? '';
const pdf = () => new File(['%PDF-1.4\n%%EOF\n'], 'paper.pdf', { type: 'application/pdf' });

/** Mounts the island over the server form, after `prepare` has "typed" into that form. */
async function mount(prepare: (form: HTMLFormElement) => void = () => {}) {
  el = document.createElement('div');
  el.setAttribute('data-island', 'PaperForm');
  el.innerHTML = FALLBACK_FORM;
  document.body.append(el);
  prepare(el.querySelector('form')!);
  root = createRoot(el);
  await act(async () => root!.render(<PaperForm sources={SOURCES} maxBytes={MAX_BYTES} makeXhr={() => new FakeXhr()} />));
}

/** Fills the server form as a visitor would have before the island mounted. */
function typeEverything(form: HTMLFormElement) {
  const values: Record<string, string> = {
    'paper-author': 'Ana Cruz',
    'paper-coauthor': 'Ben Reyes',
    'paper-number': '+639171234567',
    'paper-email': 'ana@example.org',
    'paper-country': 'Philippines',
    'paper-title': 'Solar microgrids',
    'paper-department': 'Engineering',
    'paper-university': 'University of Manila',
    'paper-message': 'Hello',
    'paper-source': 'linkedin',
  };
  for (const [id, value] of Object.entries(values)) (form.querySelector(`#${id}`) as HTMLInputElement).value = value;
  (form.querySelector('input[name="paperType"][value="Full Paper"]') as HTMLInputElement).checked = true;
  (form.querySelector('input[name="presentationType"][value="Oral"]') as HTMLInputElement).checked = true;
  Object.defineProperty(form.querySelector('#paper-file'), 'files', { value: [pdf()] });
}

async function submit() {
  await act(async () => {
    el.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

async function answer(status: number, body: unknown) {
  const xhr = FakeXhr.last!;
  await act(async () => {
    xhr.status = status;
    xhr.responseText = JSON.stringify(body);
    xhr.onload!();
  });
  await act(async () => {});
}

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  FakeXhr.last = null;
});
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  document.body.innerHTML = '';
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
    expect(shape(el)).toEqual(expected);
    expect(byId('paper-number').getAttribute('type')).toBe('tel');
    expect(Array.from(byId<HTMLSelectElement>('paper-source').options, (o) => o.textContent)).toEqual([
      'Select an option',
      ...SOURCES.map(([, label]) => label),
    ]);
    expect(el.querySelector('.paper-drop__file')!.textContent).toBe('No file chosen');
  });

  it('keeps what was typed into the server form before it mounted', async () => {
    await mount(typeEverything);
    expect(byId('paper-author').value).toBe('Ana Cruz');
    expect(byId<HTMLSelectElement>('paper-source').value).toBe('linkedin');
    expect((el.querySelector('input[name="paperType"][value="Full Paper"]') as HTMLInputElement).checked).toBe(true);
    expect(el.querySelector('.paper-drop__file')!.textContent).toBe('Selected: paper.pdf (15 bytes)');
  });
});

describe('PaperForm submitting', () => {
  it('says the first problem in the spec order and sends nothing', async () => {
    await mount();
    await submit();
    expect(statusText()).toBe('Please upload your paper file');
    expect(document.activeElement?.textContent).toBe('Choose file');
    expect(FakeXhr.last).toBeNull();
  });

  it('uploads with a progress bar, toasts twice and resets on success', async () => {
    await mount(typeEverything);
    await submit();
    const xhr = FakeXhr.last!;
    expect(xhr.body!.get('authorName')).toBe('Ana Cruz');
    expect(xhr.body!.get('paperType')).toBe('Full Paper');
    expect((xhr.body!.get('file') as File).name).toBe('paper.pdf');
    expect(xhr.body!.has('_gotcha')).toBe(false);

    await act(async () => xhr.upload.onprogress!({ lengthComputable: true, loaded: 40, total: 100 }));
    const bar = el.querySelector('progress')!;
    expect(bar.value).toBe(40);
    expect(el.querySelector(`label[for="${bar.id}"]`)!.textContent).toBe('Uploading your paper: 40%');

    await answer(201, { id: 1, reference: 'P-2025-ABC234' });
    expect(toastText()).toContain('Paper submitted successfully!');
    expect(toastText()).toContain('Our coordinator will contact you within 24-48 hours');
    expect(el.querySelector('progress')).toBeNull();
    expect(byId('paper-author').value).toBe('');
    expect(byId<HTMLSelectElement>('paper-source').value).toBe('');
    expect(el.querySelector('.paper-drop__file')!.textContent).toBe('No file chosen');
  });

  it('keeps the form and shows what the server refused', async () => {
    await mount(typeEverything);
    await submit();
    await answer(422, { message: 'Please enter a valid email address', errors: { email: 'Please enter a valid email address' } });
    expect(toastText()).toContain('Error submitting form. Please try again.');
    expect(statusText()).toBe('Please enter a valid email address');
    expect(byId('paper-email').getAttribute('aria-invalid')).toBe('true');
    expect(byId('paper-author').value).toBe('Ana Cruz');
    expect(el.querySelector('.paper-drop__file')!.textContent).toContain('paper.pdf');
  });
});
