import { describe, expect, it } from 'vitest';
import { FADE_FROM, FADE_SCROLL, shouldFade } from './fade';

describe('About Conference fade-in', () => {
  it('uses the spec scroll window and plays once (spec section 9)', () => {
    expect(FADE_SCROLL.start).toBe('top 80%');
    expect(FADE_SCROLL.end).toBe('bottom 20%');
    expect(FADE_SCROLL.toggleActions).toBe('play none none none');
    expect(FADE_SCROLL.once).toBe(true);
  });

  it('animates opacity and transform only (no layout shift)', () => {
    expect(Object.keys(FADE_FROM).sort()).toEqual(['opacity', 'y']);
  });

  it('fades a block that is still below the viewport', () => {
    expect(shouldFade({ reducedMotion: false, top: 900, viewportHeight: 800 })).toBe(true);
    expect(shouldFade({ reducedMotion: false, top: 800, viewportHeight: 800 })).toBe(true);
  });

  it('never animates under reduced motion', () => {
    expect(shouldFade({ reducedMotion: true, top: 2000, viewportHeight: 800 })).toBe(false);
  });

  it('leaves a block alone that is already on screen at mount', () => {
    expect(shouldFade({ reducedMotion: false, top: 300, viewportHeight: 800 })).toBe(false);
    expect(shouldFade({ reducedMotion: false, top: -200, viewportHeight: 800 })).toBe(false);
  });
});
