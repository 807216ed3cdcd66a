// Islands runtime: finds `[data-island]` elements, waits for each one's hydration trigger,
// imports the island's chunk and mounts it over the server-rendered fallback.
//
// Contract with the server (DESIGN.md section 7):
//   <div data-island="Name" data-props='{"...": ...}' data-hydrate="load|idle|visible|intent">
//     ...server fallback of the same size and structure...
//   </div>
// `Name` is src/islands/Name.tsx (default export). After mounting, the element gets
// `data-island-ready`. On any failure the fallback stays, a clear message goes to
// console.error and an `island:error` CustomEvent (bubbling, detail { name, error }) is
// dispatched on the element.
//
// `intent` is for what the visitor has to ask for (forms, checkout buttons below the fold):
// the chunk loads on the first pointer entering, focus, touch or click inside the element.
// A plain click on a fallback link before the island is mounted does not navigate; once
// mounted, the island's link or button at the same position is clicked instead (so Register
// Now opens the modal), or, if the island failed, the fallback link is followed after all.
// The fallback is not swapped while a pointer is pressed on it (the click would be lost);
// meanwhile, once the chunk is there, the element carries `data-island-held`.
// What the visitor entered into a fallback form (text, choices, files), focus and caret are
// carried over to the island at the swap itself, for every island (mount.tsx, lib/fallback.ts).

import type { ComponentType } from 'react';
import { actionable } from './actionable';

export type Trigger = 'load' | 'idle' | 'visible' | 'intent';
export type IslandProps = Record<string, unknown>;
export type IslandModule = { default: ComponentType<any> };
/** Keys are `./islands/Name.tsx`, as `import.meta.glob('./islands/*.tsx')` gives them. */
export type IslandLoaders = Record<string, () => Promise<unknown>>;

/** The rIC timeout for `idle`: an island is mounted by then even on a busy page. */
export const IDLE_TIMEOUT_MS = 2000;
/** Delay for `idle` where requestIdleCallback does not exist (Safari). */
export const IDLE_FALLBACK_DELAY_MS = 200;
/** `visible` islands start loading a little before they scroll into view. */
export const VISIBLE_ROOT_MARGIN = '200px';
/** Events on an `intent` island's element that show the visitor is about to use it. */
export const INTENT_EVENTS = ['pointerenter', 'focusin', 'touchstart', 'click'] as const;

const NAME_RE = /^[A-Z][A-Za-z0-9]*$/;

/** Thrown for every problem the runtime detects; its message is what console.error shows. */
export class IslandError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IslandError';
  }
}

/** `data-hydrate` → trigger. Missing or empty means `load`; an unknown value is an error. */
export function parseTrigger(value: string | null | undefined): Trigger {
  const v = (value ?? '').trim();
  if (v === '') return 'load';
  if (v === 'load' || v === 'idle' || v === 'visible' || v === 'intent') return v;
  throw new IslandError(`data-hydrate="${v}" is not one of load, idle, visible, intent`);
}

/** `data-props` (already HTML-unescaped by the browser) → props object. Missing means `{}`. */
export function parseProps(raw: string | null | undefined): IslandProps {
  if (raw == null || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new IslandError(`data-props is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new IslandError('data-props must be a JSON object');
  }
  return value as IslandProps;
}

/** Island name → its key in the glob map. Rejects anything that is not a component name. */
export function islandModuleKey(name: string | null | undefined): string {
  const n = (name ?? '').trim();
  if (!NAME_RE.test(n)) {
    throw new IslandError(`data-island="${n}" is not a valid island name (expected e.g. "Countdown")`);
  }
  return `./islands/${n}.tsx`;
}

/** What waitForTrigger needs from the browser; injectable for tests. */
export interface TriggerEnv {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => unknown;
  setTimeout: (cb: () => void, ms: number) => unknown;
  requestAnimationFrame?: (cb: () => void) => unknown;
  PerformanceObserver?: {
    new (cb: (list: { getEntriesByName(name: string): unknown[] }) => void): {
      observe(opts: { type: string; buffered: boolean }): void;
      disconnect(): void;
    };
    supportedEntryTypes?: readonly string[];
  };
  IntersectionObserver?: new (
    cb: (entries: Array<{ isIntersecting: boolean }>, observer: { disconnect(): void }) => void,
    opts?: { rootMargin?: string },
  ) => { observe(el: Element): void; disconnect(): void };
}

/** Longest wait for the first paint before `load`, `idle` and `visible` islands start anyway (a
 * hidden tab never paints). */
export const FIRST_PAINT_TIMEOUT_MS = 1000;

/**
 * Resolves once the page's first contentful paint has been presented (its `paint` entry is
 * reported after the frame reaches the screen), else after the next frame, and at the latest
 * after FIRST_PAINT_TIMEOUT_MS. Chunks fetched before the first paint (React above all) share
 * the slow link and the main thread with the render-blocking CSS, and Lighthouse counts them
 * into FCP/LCP (issue 13).
 */
export function afterFirstPaint(env: TriggerEnv): Promise<void> {
  return new Promise<void>((resolve) => {
    let observer: { disconnect(): void } | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      observer?.disconnect();
      resolve();
    };
    const PO = env.PerformanceObserver;
    if (typeof PO === 'function' && PO.supportedEntryTypes?.includes('paint')) {
      env.setTimeout(finish, FIRST_PAINT_TIMEOUT_MS);
      const po = new PO((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) env.setTimeout(finish, 0);
      });
      observer = po;
      po.observe({ type: 'paint', buffered: true });
    } else if (typeof env.requestAnimationFrame === 'function') {
      env.setTimeout(finish, FIRST_PAINT_TIMEOUT_MS);
      env.requestAnimationFrame(() => env.setTimeout(finish, 0));
    } else {
      finish();
    }
  });
}

/**
 * Resolves when the island should be loaded. `load`, `idle` and `visible` all wait for the
 * first paint as well ([`afterFirstPaint`]): the browser can be idle, and an element in view,
 * before the page has painted (between the `load` event and the first frame), and a chunk
 * fetched then (React with it, at high priority) is one Lighthouse counts into the page's
 * LCP (issue 30: `NoticePopup`, `idle` on every page, put React before the paint of
 * `/pricing`). Only `intent`, a visitor's own act, does not wait.
 */
export function waitForTrigger(trigger: Trigger, el: Element, env: TriggerEnv = globalThis as unknown as TriggerEnv): Promise<void> {
  return new Promise<void>((resolve) => {
    switch (trigger) {
      case 'load':
        afterFirstPaint(env).then(resolve);
        return;
      case 'idle':
        afterFirstPaint(env).then(() => {
          if (typeof env.requestIdleCallback === 'function') {
            env.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
          } else {
            env.setTimeout(() => resolve(), IDLE_FALLBACK_DELAY_MS);
          }
        });
        return;
      case 'intent': {
        const fire = () => {
          for (const type of INTENT_EVENTS) el.removeEventListener(type, fire, true);
          resolve();
        };
        for (const type of INTENT_EVENTS) el.addEventListener(type, fire, { capture: true, passive: true });
        return;
      }
      case 'visible': {
        // Observed at once, loaded once it is near the viewport and the page has painted.
        const painted = afterFirstPaint(env);
        if (typeof env.IntersectionObserver !== 'function') {
          painted.then(resolve);
          return;
        }
        const observer = new env.IntersectionObserver(
          (entries, obs) => {
            if (entries.some((e) => e.isIntersecting)) {
              obs.disconnect();
              painted.then(resolve);
            }
          },
          { rootMargin: VISIBLE_ROOT_MARGIN },
        );
        observer.observe(el);
        return;
      }
    }
  });
}

const started = new WeakSet<Element>();

/** Longest the runtime waits for a press on an `intent` island's fallback to end before it
 * mounts the island anyway (a finger left resting on the screen). */
export const PRESS_WAIT_MS = 2000;

/** Set on an `intent` island's element while its chunk has arrived but a press on the fallback
 * holds the mount back; removed when the press ends (or after PRESS_WAIT_MS). */
export const HELD_ATTRIBUTE = 'data-island-held';

/** What [`holdEarlyClicks`] gives the runtime. */
interface EarlyClicks {
  /** Resolves once no pointer is pressed inside the fallback (at once when none is) and the
   * click that ends a press has been dispatched, at the latest after PRESS_WAIT_MS. */
  released(): Promise<void>;
  /** Stops holding clicks and replays the last one held. */
  done(mounted: boolean): void;
}

/**
 * Until `done` is called, holds back plain clicks on the fallback's links (they would leave
 * the page before the island could take over) and remembers the last one. `done(mounted)`
 * replays it: on the island's link or button at the same position, or on the fallback link.
 *
 * It also tracks presses: markup swapped between a pointer's down and up loses the click
 * (browsers send it to what both ends have in common, no longer the link), so a tap whose
 * touchstart started the loading would do nothing. The runtime mounts once `released()`.
 */
function holdEarlyClicks(el: HTMLElement): EarlyClicks {
  let held: { index: number; link: HTMLElement } | null = null;
  let pressed = false;
  let onRelease: (() => void) | null = null;
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLElement | null;
    if (!link || !el.contains(link) || event.defaultPrevented) return;
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    held = { index: actionable(el).indexOf(link), link };
  };
  const onDown = () => {
    pressed = true;
  };
  // On the document: the press may end outside the island. The click follows `pointerup` in
  // the same task, so the next task sees it held.
  const onUp = () => {
    if (!pressed) return;
    pressed = false;
    setTimeout(() => onRelease?.(), 0);
  };
  el.addEventListener('click', onClick);
  el.addEventListener('pointerdown', onDown, true);
  document.addEventListener('pointerup', onUp, true);
  document.addEventListener('pointercancel', onUp, true);
  return {
    released: () => {
      if (!pressed) return Promise.resolve();
      // Loaded and waiting for the press to end: a state tests can wait for (instead of a
      // fixed time) before they check that the fallback is still there.
      el.setAttribute(HELD_ATTRIBUTE, '');
      return new Promise<void>((resolve) => {
        const release = () => {
          el.removeAttribute(HELD_ATTRIBUTE);
          resolve();
        };
        const timer = setTimeout(release, PRESS_WAIT_MS);
        onRelease = () => {
          clearTimeout(timer);
          release();
        };
      });
    },
    done(mounted) {
      el.removeEventListener('click', onClick);
      el.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('pointerup', onUp, true);
      document.removeEventListener('pointercancel', onUp, true);
      if (!held) return;
      const target = mounted ? (actionable(el)[held.index] ?? actionable(el)[0]) : held.link;
      target?.click();
    },
  };
}

export function fail(el: Element, name: string, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`[islands] island "${name}" failed; keeping the server fallback. ${reason}`, error);
  el.dispatchEvent(new CustomEvent('island:error', { bubbles: true, detail: { name, error } }));
}

/**
 * Mounts one island element. Resolves to true once mounted (`data-island-ready` set), false on
 * failure (fallback kept, error reported). Never rejects.
 */
export async function mountIsland(el: HTMLElement, loaders: IslandLoaders, env?: TriggerEnv): Promise<boolean> {
  const name = el.getAttribute('data-island') ?? '';
  if (started.has(el)) return el.hasAttribute('data-island-ready');
  started.add(el);
  let early: EarlyClicks | null = null;
  try {
    const key = islandModuleKey(name);
    const load = loaders[key];
    if (!load) throw new IslandError(`no component file src/islands/${name}.tsx`);
    const props = parseProps(el.getAttribute('data-props'));
    const trigger = parseTrigger(el.getAttribute('data-hydrate'));
    if (trigger === 'intent') early = holdEarlyClicks(el);
    await waitForTrigger(trigger, el, env);

    // React comes with the first island, not with the entry: the entry's static imports are
    // preloaded in <head>, where 68 KB of React would share the slow link with the stylesheet.
    const [mod, { render }] = await Promise.all([load() as Promise<IslandModule>, import('./mount')]).catch(
      (e: unknown) => {
        throw new IslandError(`could not load its chunk: ${(e as Error)?.message ?? e}`, { cause: e });
      },
    );
    const Component = mod?.default;
    if (Component == null || (typeof Component !== 'function' && typeof Component !== 'object')) {
      throw new IslandError(`src/islands/${name}.tsx has no default export component`);
    }
    const renderError = (e: unknown) => new IslandError(`render error: ${(e as Error)?.message ?? e}`, { cause: e });
    // Not under a finger or a mouse button: a press on the fallback ends (and its click is
    // held) before the fallback goes.
    await early?.released();
    // `render` also keeps a keyboard visitor's focus on what replaces the focused control.
    await render(el, Component, props, (e) => fail(el, name, renderError(e)), actionable).catch((e: unknown) => {
      throw renderError(e);
    });
    early?.done(true);
    return true;
  } catch (error) {
    fail(el, name, error);
    early?.done(false);
    return false;
  }
}

/** Finds every `[data-island]` under `root` and mounts each when its trigger fires. */
export function startIslands(root: ParentNode, loaders: IslandLoaders, env?: TriggerEnv): Promise<boolean[]> {
  const els = Array.from(root.querySelectorAll<HTMLElement>('[data-island]'));
  return Promise.all(els.map((el) => mountIsland(el, loaders, env)));
}
