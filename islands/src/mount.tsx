// Mounting with React. React itself is the shared `react` chunk (vite.config.ts); the runtime
// imports this module lazily with the first island, so pages fetch React only once an island
// mounts, and never while the stylesheet is still loading.
//
// This module (and lib/fallback.ts) imports nothing the runtime entry imports: the runtime's
// `actionable` comes as an argument of `render`. Vite's `mount` code-splitting group takes this
// module's dependencies into the `mount` chunk with it, so a module shared with the runtime
// (actionable.ts, until issue 30) lands there, the entry imports the `mount` chunk statically,
// and React with it: the page's <head> preloads 68 KB of React and the runtime evaluates it
// before the first paint (LCP on `/` 1.7 s instead of 1.1 s). src/cache/assets.rs's tests fail when
// the built entry imports any chunk statically.

import { createRoot } from 'react-dom/client';
import { useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import type { Actionable } from './actionable';
import { carryOver, caretFor, counterpart, formControls, isFormControl, type FormControl } from './lib/fallback';

let counter = 0;

/**
 * Renders `Component` into `el`, replacing the server fallback on React's first commit.
 * Resolves once the island has committed, taken over what the visitor entered into the
 * fallback (lib/fallback.ts) and focus, and set `data-island-ready`; rejects if the first
 * render throws, after putting the fallback back. A crash after that also restores the
 * fallback and is reported through `onLaterError`. `actionable` is the runtime's (the same
 * links and buttons its held clicks are replayed on), passed in rather than imported (above).
 */
export function render(
  el: HTMLElement,
  Component: ComponentType<any>,
  props: Record<string, unknown>,
  onLaterError: (error: unknown) => void,
  actionable: Actionable,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // The server markup itself, not a copy: React only takes it out of the page, so these
    // nodes keep what the visitor entered up to the swap (read after it, and put back on a
    // crash).
    const fallback = Array.from(el.childNodes);
    const controls = formControls(el);
    let mounted = false;
    let crashed = false;
    // The control the visitor is in as the markup is swapped (an `intent` island loads
    // because they focused it), with its caret: the commit removes it and focus would fall to
    // <body>, so what they type or press next would be lost. Read while rendering, in the
    // commit's task: a node taken out of the page no longer tells where its caret was.
    let focusedBefore: FocusedBefore | null = null;

    const root = createRoot(el, {
      identifierPrefix: `island${++counter}-`,
      onUncaughtError(error) {
        if (crashed) return;
        crashed = true;
        // React is still inside its own work here; unmount once it is done.
        setTimeout(() => {
          root.unmount();
          el.replaceChildren(...fallback);
          el.removeAttribute('data-island-ready');
          if (mounted) onLaterError(error);
          else reject(error);
        }, 0);
      },
    });

    // Runs after the commit but outside React's work, so the island handles the input events
    // of `carryOver` as a visitor's and its state (and what it derives from it) is updated
    // synchronously; still in the commit's task, so nothing the visitor does comes between.
    const takeOver = () => {
      if (crashed) return;
      carryOver(controls, el);
      if (crashed) return;
      mounted = true;
      keepFocus(el, focusedBefore, controls, actionable);
      el.setAttribute('data-island-ready', '');
      resolve();
    };

    function Ready({ children }: { children: ReactNode }) {
      if (!mounted) focusedBefore = focusIn(el, document.activeElement, actionable);
      useLayoutEffect(() => {
        if (crashed) return;
        queueMicrotask(takeOver);
      }, []);
      return children;
    }

    root.render(
      <Ready>
        <Component {...props} />
      </Ready>,
    );
  });
}

/** The focused control of the server markup: the element, its place among the links and
 * buttons, and its value and caret at the swap. */
interface FocusedBefore {
  element: HTMLElement;
  index: number;
  value: string;
  selectionStart: number | null;
  selectionEnd: number | null;
}

function focusIn(el: HTMLElement, target: EventTarget | null, actionable: Actionable): FocusedBefore | null {
  if (!(target instanceof HTMLElement) || !el.contains(target)) return null;
  const text = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ? target : null;
  let selectionStart: number | null = null;
  let selectionEnd: number | null = null;
  try {
    selectionStart = text?.selectionStart ?? null;
    selectionEnd = text?.selectionEnd ?? null;
  } catch {
    // inputs without a caret (checkbox, file) have no selection
  }
  return { element: target, index: actionable(el).indexOf(target), value: text?.value ?? '', selectionStart, selectionEnd };
}

/**
 * After the first commit, when the control that had focus was replaced (focus fell to
 * <body>, or the island focused the replacement itself): focuses its replacement, with the
 * caret where it was. That is the island's control standing for it (lib/fallback.ts: same
 * id, else same name and value; islands render the server form's ids and names, labels rely
 * on them), else the element with its id, else the link or button at the same place (a
 * fallback link that became a button).
 */
function keepFocus(
  el: HTMLElement,
  before: FocusedBefore | null,
  controls: readonly FormControl[],
  actionable: Actionable,
): void {
  if (!before || before.element.isConnected) return;
  const old = before.element;
  const byId = old.id ? document.getElementById(old.id) : null;
  const after =
    (isFormControl(old) ? counterpart(old, controls, formControls(el)) : undefined) ??
    (byId && el.contains(byId) ? byId : before.index >= 0 ? actionable(el)[before.index] : undefined);
  if (!after) return;
  // The island's own effects run first and may have focused the same control (the caret
  // then sits at its start) or, on purpose, another one, which is left as it is.
  const active = document.activeElement;
  if (active && active !== document.body && active !== after) return;
  if (active !== after) after.focus({ preventScroll: true });
  if (after instanceof HTMLInputElement || after instanceof HTMLTextAreaElement) {
    try {
      const caret = caretFor(before, after);
      if (caret) after.setSelectionRange(caret[0], caret[1]);
    } catch {
      // inputs without a caret (checkbox, file, email in some browsers) have no selection
    }
  }
}
