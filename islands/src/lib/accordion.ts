// Policy accordion (spec section 4: one open at a time; clicking the open one closes it) and
// the headers' keyboard model (WAI-ARIA accordion: Up/Down wrap, Home/End).

/** The open section after a header is activated: it opens, or closes when it was open. */
export function toggleOpen(open: string | null, id: string): string | null {
  return open === id ? null : id;
}

/** The header a key moves focus to from `current` among `count`, or null for other keys. */
export function headerKeyTarget(current: number, key: string, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
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
