// About Conference block fade-in (spec section 2 and 9): gsap ScrollTrigger from 'top 80%' to
// 'bottom 20%', played once. Renders nothing: it animates the server-rendered section it sits
// in, which stays fully visible without JavaScript, under reduced motion, and when it is already
// on screen at mount (lib/fade.ts).
//
// gsap (about 110 KB) is its own chunk, imported only when a fade will play: the island mounts
// as the section comes near (data-hydrate="visible"), and a section already on screen, or a
// visitor asking for reduced motion, never loads it.

import { useEffect, useRef } from 'react';
import { FADE_FROM, FADE_SCROLL, shouldFade } from '../lib/fade';

export default function AboutFadeIn() {
  const marker = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const section = marker.current?.closest('section');
    if (!section) throw new Error('AboutFadeIn must sit inside the About Conference <section>');
    const fades = () =>
      shouldFade({
        reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
        top: section.getBoundingClientRect().top,
        viewportHeight: window.innerHeight,
      });
    if (!fades()) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    Promise.all([import('gsap'), import('gsap/ScrollTrigger')])
      .then(([{ gsap }, { ScrollTrigger }]) => {
        // The visitor may have scrolled the section into view while gsap was on its way:
        // hiding it now would flash it away.
        if (cancelled || !fades()) return;
        gsap.registerPlugin(ScrollTrigger);
        // The text column and the figure; opacity and transform only, so nothing reflows and
        // links stay focusable (focusing one scrolls it in and plays the fade).
        const targets = section.querySelectorAll<HTMLElement>('.about-conference__grid > *');
        const tween = gsap.from(targets, {
          ...FADE_FROM,
          duration: 0.8,
          ease: 'power2.out',
          stagger: 0.15,
          scrollTrigger: { trigger: section, ...FADE_SCROLL },
        });
        stop = () => {
          tween.scrollTrigger?.kill();
          tween.kill();
          gsap.set(targets, { clearProps: 'opacity,transform' });
        };
      })
      .catch((error: unknown) => {
        // The section simply stays as the server rendered it.
        console.warn('[islands] AboutFadeIn: gsap could not be loaded; no fade', error);
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);

  return <span ref={marker} hidden />;
}
