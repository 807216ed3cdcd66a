// Policy accordion (spec section 4: one open at a time; clicking the open one closes it) and
// the headers' keyboard model (WAI-ARIA accordion: Up/Down wrap, Home/End).

import { rovingTarget } from './roving';

/** The open section after a header is activated: it opens, or closes when it was open. */
export function toggleOpen(open: string | null, id: string): string | null {
  return open === id ? null : id;
}

/** The header a key moves focus to from `current` among `count` (Up/Down), or null. */
export function headerKeyTarget(current: number, key: string, count: number): number | null {
  return rovingTarget(current, key, count, 'vertical');
}

/** The section a URL fragment names (`#pol-terms-3`), so a deep link opens it. */
export function sectionFromHash(hash: string, ids: string[]): string | null {
  let id = hash.replace(/^#/, '');
  try {
    id = decodeURIComponent(id);
  } catch {
    // keep it as written
  }
  return ids.includes(id) ? id : null;
}
