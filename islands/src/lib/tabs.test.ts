import { describe, expect, it } from 'vitest';
import { bioParagraphs, initialTabIndex, orderGroups, tabKeyTarget, type SpeakerGroupData } from './tabs';

const speaker = (id: string, order: number, name = id) => ({ id, order, name, role: 'r', image: '/i.svg', bio: 'b' });

const groups: SpeakerGroupData[] = [
  { category: 'guest', label: 'Guest of Honor', speakers: [speaker('g2', 2), speaker('g1', 1)] },
  { category: 'keynote', label: 'Keynote Speaker', speakers: [speaker('k3', 3, 'Zed'), speaker('k1', 3, 'Amy'), speaker('k0', 0)] },
  { category: 'session', label: 'Session Chair', speakers: [] },
];

describe('speaker groups', () => {
  it('orders speakers by order, then name, and drops empty groups', () => {
    const ordered = orderGroups(groups);
    expect(ordered.map((g) => g.category)).toEqual(['guest', 'keynote']);
    expect(ordered[0].speakers.map((s) => s.id)).toEqual(['g1', 'g2']);
    expect(ordered[1].speakers.map((s) => s.id)).toEqual(['k0', 'k1', 'k3']);
  });

  it('does not reorder the props it was given', () => {
    orderGroups(groups);
    expect(groups[0].speakers.map((s) => s.id)).toEqual(['g2', 'g1']);
  });

  it('opens on the keynote tab, or the first one when there are no keynotes', () => {
    const ordered = orderGroups(groups);
    expect(initialTabIndex(ordered, 'keynote')).toBe(1);
    expect(initialTabIndex(ordered, 'session')).toBe(0);
    expect(initialTabIndex(ordered, undefined)).toBe(0);
  });
});

describe('tab keys (WAI-ARIA tabs)', () => {
  it('moves right and left with wrap-around', () => {
    expect(tabKeyTarget(0, 'ArrowRight', 3)).toBe(1);
    expect(tabKeyTarget(2, 'ArrowRight', 3)).toBe(0);
    expect(tabKeyTarget(0, 'ArrowLeft', 3)).toBe(2);
  });

  it('jumps with Home and End and ignores other keys', () => {
    expect(tabKeyTarget(1, 'Home', 3)).toBe(0);
    expect(tabKeyTarget(1, 'End', 3)).toBe(2);
    expect(tabKeyTarget(1, 'ArrowDown', 3)).toBeNull();
    expect(tabKeyTarget(1, 'Enter', 3)).toBeNull();
    expect(tabKeyTarget(0, 'ArrowRight', 0)).toBeNull();
  });
});

describe('bio paragraphs', () => {
  it('splits at blank lines and tidies whitespace', () => {
    expect(bioParagraphs('One  line\nwrapped.\n\n  Two.\n \n')).toEqual(['One line wrapped.', 'Two.']);
    expect(bioParagraphs('')).toEqual([]);
  });
});
