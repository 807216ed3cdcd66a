// Speaker tabs: ordering and the WAI-ARIA tabs keyboard model (Left/Right wrap, Home/End).

import { rovingTarget } from './roving';

export interface SpeakerData {
  id: string;
  /** Position within the site (the spec's `order`); lower comes first. */
  order: number;
  name: string;
  role: string;
  image: string;
  bio: string;
}

export interface SpeakerGroupData {
  /** `guest`, `keynote` or `session`. */
  category: string;
  /** Guest of Honor, Keynote Speaker, Session Chair. */
  label: string;
  speakers: SpeakerData[];
}

/** Groups without empty ones, speakers sorted by `order` then name (stable for equal keys). */
export function orderGroups(groups: SpeakerGroupData[]): SpeakerGroupData[] {
  return groups
    .filter((g) => g.speakers.length > 0)
    .map((g) => ({
      ...g,
      speakers: [...g.speakers].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name)),
    }));
}

/** The tab to open first: `preferred` when that group exists, else the first one. */
export function initialTabIndex(groups: SpeakerGroupData[], preferred: string | undefined): number {
  const at = groups.findIndex((g) => g.category === preferred);
  return at >= 0 ? at : 0;
}

/** The tab a key moves to from `current` among `count` tabs (Left/Right), or null. */
export function tabKeyTarget(current: number, key: string, count: number): number | null {
  return rovingTarget(current, key, count, 'horizontal');
}

/** A bio as paragraphs (blank lines separate them). */
export function bioParagraphs(bio: string): string[] {
  return bio
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
}

/**
 * The groups and speakers of the server's markup (templates/partials/speakers.html), in its
 * order, which is the tab order and each speaker's `order`: the island's data, sent once.
 */
export function groupsFromMarkup(root: ParentNode | null): SpeakerGroupData[] {
  if (!root) return [];
  const text = (scope: Element, selector: string) => scope.querySelector(selector)?.textContent?.trim() ?? '';
  return Array.from(root.querySelectorAll<HTMLElement>('[data-category]'), (group) => {
    const category = group.dataset.category ?? '';
    return {
      category,
      label: text(group, '.speakers__category'),
      speakers: Array.from(group.querySelectorAll('.person-card'), (card, order) => ({
        id: `${category}-${order}`,
        order,
        name: text(card, '.person-card__name'),
        role: text(card, '.person-card__role'),
        image: card.querySelector('img')?.getAttribute('src') ?? '',
        // The bio's own line breaks (paragraphs) are in the text, not trimmed away inside.
        bio: card.querySelector('.person-card__more p')?.textContent ?? '',
      })),
    };
  });
}
