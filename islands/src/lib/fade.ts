// About Conference fade-in (spec section 2 and 9: fade in once, from when the block's top is at
// 80% of the viewport to when its bottom is at 20%). gsap itself is imported only by the
// AboutFadeIn island's chunk.

/** The ScrollTrigger settings, as the spec gives them. */
export const FADE_SCROLL = {
  start: 'top 80%',
  end: 'bottom 20%',
  toggleActions: 'play none none none',
  once: true,
} as const;

/** Where the content starts from: transparent and a little lower (transform: no layout shift). */
export const FADE_FROM = { opacity: 0, y: 40 } as const;

export interface FadeSituation {
  /** The visitor asked for reduced motion. */
  reducedMotion: boolean;
  /** The block's top edge relative to the viewport (px) when the island mounts. */
  top: number;
  /** The viewport height (px). */
  viewportHeight: number;
}

/**
 * Whether to animate at all. Never under reduced motion; and not when the block is already on
 * screen when the island mounts (a reload mid-page): hiding visible text only to fade it back
 * would be a flash, not an entrance.
 */
export function shouldFade({ reducedMotion, top, viewportHeight }: FadeSituation): boolean {
  if (reducedMotion) return false;
  return top >= viewportHeight;
}
