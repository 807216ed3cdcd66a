// What the runtime (held clicks) and the React mount (kept focus) both need to find in an
// island's markup. A module of its own so that neither imports the other: the runtime loads
// `mount` lazily, with React, and `mount` must not pull the runtime back in. Only the runtime
// imports it; `mount.tsx` gets it as an argument of `render` and imports its type alone (a
// module `mount.tsx` imports goes into the `mount` chunk, and the entry would then import that
// chunk and React before the first paint: issue 30, mount.tsx).

/** Finds an island's links and buttons ([`actionable`]). */
export type Actionable = (el: Element) => HTMLElement[];

/** The links and buttons of an island's markup, in document order (an early click is replayed,
 * and focus kept, on the one at the same place). */
export function actionable(el: Element): HTMLElement[] {
  return Array.from(el.querySelectorAll<HTMLElement>('a[href], button'));
}
