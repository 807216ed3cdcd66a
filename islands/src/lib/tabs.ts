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
