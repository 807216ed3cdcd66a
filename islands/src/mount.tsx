// Mounting with React. React itself is the shared `react` chunk (vite.config.ts); the runtime
// imports this module lazily with the first island, so pages fetch React only once an island
// mounts, and never while the stylesheet is still loading.

import { createRoot } from 'react-dom/client';
import { useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import { actionable } from './actionable';

let counter = 0;

/**
 * Renders `Component` into `el`, replacing the server fallback on React's first commit.
 * Resolves once the island has committed (and sets `data-island-ready`); rejects if the first
 * render throws, after putting the fallback back. A crash after that also restores the
 * fallback and is reported through `onLaterError`.
 */
export function render(
  el: HTMLElement,
  Component: ComponentType<any>,
  props: Record<string, unknown>,
  onLaterError: (error: unknown) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // React clears the element on its first commit; keep the server markup to put it back.
    const fallback = el.cloneNode(true) as HTMLElement;
    let mounted = false;
    let crashed = false;
    // The server control the visitor is in while the island loads (an `intent` island loads
    // because they focused it): the commit removes it, and focus would fall to <body>, so
    // what they type or press next would be lost. Tracked up to the commit itself.
    let focusedBefore = focusIn(el, document.activeElement);
    const trackFocus = (event: FocusEvent) => {
      focusedBefore = focusIn(el, event.target);
    };
    el.addEventListener('focusin', trackFocus);

    const root = createRoot(el, {
      identifierPrefix: `island${++counter}-`,
      onUncaughtError(error) {
        if (crashed) return;
        crashed = true;
        // React is still inside its own work here; unmount once it is done.
        setTimeout(() => {
          el.removeEventListener('focusin', trackFocus);
          root.unmount();
          el.replaceChildren(...Array.from(fallback.childNodes));
          el.removeAttribute('data-island-ready');
          if (mounted) onLaterError(error);
          else reject(error);
        }, 0);
      },
    });

    function Ready({ children }: { children: ReactNode }) {
      useLayoutEffect(() => {
        el.removeEventListener('focusin', trackFocus);
        if (crashed) return;
        mounted = true;
        keepFocus(el, focusedBefore);
        el.setAttribute('data-island-ready', '');
        resolve();
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

/** The focused control of the server markup: the element, and its place among the links and buttons. */
interface FocusedBefore {
  element: HTMLElement;
  index: number;
}

function focusIn(el: HTMLElement, target: EventTarget | null): FocusedBefore | null {
  if (!(target instanceof HTMLElement) || !el.contains(target)) return null;
  return { element: target, index: actionable(el).indexOf(target) };
}

/**
 * After the first commit, when the control that had focus was replaced (focus fell to
 * <body>): focuses its replacement, the island's control with the same id (islands render the
 * server form's ids, labels rely on them) with the caret where it was, else the link or button
 * at the same place (a fallback link that became a button).
 */
function keepFocus(el: HTMLElement, before: FocusedBefore | null): void {
  if (!before || before.element.isConnected) return;
  const active = document.activeElement;
  if (active && active !== document.body) return;
  const byId = before.element.id ? document.getElementById(before.element.id) : null;
  const after = byId && el.contains(byId) ? byId : before.index >= 0 ? actionable(el)[before.index] : undefined;
  if (!after) return;
  after.focus({ preventScroll: true });
  const old = before.element;
  if (
    (old instanceof HTMLInputElement || old instanceof HTMLTextAreaElement) &&
    (after instanceof HTMLInputElement || after instanceof HTMLTextAreaElement)
  ) {
    try {
      after.setSelectionRange(old.selectionStart, old.selectionEnd);
    } catch {
      // inputs without a caret (checkbox, file, email in some browsers) have no selection
    }
  }
}
