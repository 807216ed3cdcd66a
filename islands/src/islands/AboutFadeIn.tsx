// About Conference block fade-in (spec section 2 and 9): gsap ScrollTrigger from 'top 80%' to
// 'bottom 20%', played once. Renders nothing: it animates the server-rendered section it sits
// in, which stays fully visible without JavaScript, under reduced motion, and when it is already
// on screen at mount (lib/fade.ts). Only this chunk imports gsap.

import { useEffect, useRef } from 'react';
import { gsap } from 'gsap';
import { ScrollTrigger } from 'gsap/ScrollTrigger';
import { FADE_FROM, FADE_SCROLL, shouldFade } from '../lib/fade';

export default function AboutFadeIn() {
  const marker = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const section = marker.current?.closest('section');
    if (!section) throw new Error('AboutFadeIn must sit inside the About Conference <section>');
    const fade = shouldFade({
      reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
      top: section.getBoundingClientRect().top,
      viewportHeight: window.innerHeight,
    });
    if (!fade) return;
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
    return () => {
      tween.scrollTrigger?.kill();
      tween.kill();
      gsap.set(targets, { clearProps: 'opacity,transform' });
    };
  }, []);

  return <span ref={marker} hidden />;
}
