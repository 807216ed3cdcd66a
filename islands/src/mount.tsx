// Mounting with React. React itself is the shared `react` chunk (vite.config.ts); the runtime
// imports this module lazily with the first island, so pages fetch React only once an island
// mounts, and never while the stylesheet is still loading.

import { createRoot } from 'react-dom/client';
import { useLayoutEffect, type ComponentType, type ReactNode } from 'react';

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

    const root = createRoot(el, {
      identifierPrefix: `island${++counter}-`,
      onUncaughtError(error) {
        if (crashed) return;
        crashed = true;
        // React is still inside its own work here; unmount once it is done.
        setTimeout(() => {
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
        if (crashed) return;
        mounted = true;
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
