// Helpers shared by the islands' unit tests (Testing Library + user-event, happy-dom).
//
// Many islands take over a form the server has already rendered. The tests read that
// fallback straight from the template, put it on the page (where a visitor may type into it
// before the island loads), then mount the island over it with Testing Library's
// render(<Island />, { container }).

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { TOAST_HOST_ID } from './lib/toasts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A template of the Rust server, by its path under templates/ (e.g. 'partials/footer.html'). */
export function readTemplate(path: string): string {
  return readFileSync(resolve(REPO, 'templates', path), 'utf8');
}

/** The first match of `pattern` in a template, e.g. its <form>…</form>; throws when absent. */
export function templatePart(path: string, pattern: RegExp): string {
  const found = readTemplate(path).match(pattern);
  if (!found) throw new Error(`templates/${path} has nothing matching ${pattern}`);
  return found[0];
}

/** Puts server-rendered HTML on the page, in the element an island will be mounted into. */
export function serverRendered(html: string, attrs: Record<string, string> = {}): HTMLElement {
  const container = document.createElement('div');
  for (const [name, value] of Object.entries(attrs)) container.setAttribute(name, value);
  container.innerHTML = html;
  document.body.append(container);
  return container;
}

/** The text of the page's toasts ('' before the first one). */
export function toastText(): string {
  return document.getElementById(TOAST_HOST_ID)?.textContent ?? '';
}

/** The text of what a control's aria-describedby points at (its error message, say). */
export function descriptionOf(el: Element): string {
  const ids = el.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** Replaces fetch with one that answers every request with this JSON. */
export function stubFetch(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** HTML as the browser keeps it once parsed (attribute names lower-cased, and so on), to
 *  compare with a container's innerHTML. */
export function parsedHtml(html: string): string {
  const scratch = document.createElement('div');
  scratch.innerHTML = html;
  return scratch.innerHTML;
}
