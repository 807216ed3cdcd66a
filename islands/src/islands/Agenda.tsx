// The visitor's own programme (issue 31 item 4): a star on every talk (kept in localStorage),
// "My agenda" to show only the starred talks and their sessions, with a link to their
// calendar; and, during the conference, "Now" and "Next" on the sessions, the page opening at
// the current one. Mounted by templates/partials/agenda.html (no fallback: without JavaScript
// there are no stars and the page is the whole programme); it reads the programme's markup
// (lib/agenda.ts) and adds to it in place, moving nothing.

import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { agendaUrl, marksAt, sessionsOn, talksOn, untilChange } from '../lib/agenda';
import { readStars, STARS_KEY, writeStars } from '../lib/stars';

export interface AgendaProps {
  /** `/schedule/agenda.ics`. */
  icsPath: string;
  /** The clock, in milliseconds since the epoch; tests stub it. */
  now?: () => number;
}

/** Longest wait between two looks at the clock: a timer set days ahead may fire late after the
 * computer slept. */
const MAX_WAIT_MS = 60 * 60 * 1000;

export default function Agenda({ icsPath, now = Date.now }: AgendaProps) {
  const [talks] = useState(() => talksOn(document));
  const [sessions] = useState(() => sessionsOn(document));
  const [stars, setStars] = useState(readStars);
  const [mine, setMine] = useState(false);
  const [at, setAt] = useState(now);
  const starred = talks.filter((t) => stars.includes(t.slug));
  const marks = marksAt(sessions, at);
  // A programme has hundreds of talks: their stars are rendered as a transition, which React
  // splits into short slices between the browser's other work, rather than in one long task
  // as the island mounts (Lighthouse's blocking time on /schedule).
  const [starsShown, setStarsShown] = useState(false);
  useEffect(() => startTransition(() => setStarsShown(true)), []);

  // Another tab starred or unstarred a talk.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STARS_KEY) setStars(readStars());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // "The page opens at Now": once, as the island mounts, unless the address names a place or
  // the visitor has scrolled already (the island mounts when the browser is idle).
  const [opening] = useState(() => sessions[marks.indexOf('now')] ?? sessions[marks.indexOf('next')]);
  useEffect(() => {
    if (!opening || window.location.hash || window.scrollY !== 0) return;
    opening.el.scrollIntoView({ block: 'start' });
  }, [opening]);

  useEffect(() => {
    const wait = untilChange(sessions, at);
    if (wait === null) return;
    const id = setTimeout(() => setAt(now()), Math.min(wait, MAX_WAIT_MS));
    return () => clearTimeout(id);
  }, [sessions, at, now]);

  useLayoutEffect(() => {
    sessions.forEach((s, i) => {
      if (marks[i] === 'now') s.el.setAttribute('aria-current', 'true');
      else s.el.removeAttribute('aria-current');
    });
  });

  // My agenda: what is not starred is hidden (the server never hides these), and shown again
  // when the visitor turns it off.
  useLayoutEffect(() => {
    if (!mine) return;
    const keep = new Set(starred.map((t) => t.el));
    const hidden: HTMLElement[] = [];
    const hide = (el: HTMLElement) => {
      el.hidden = true;
      hidden.push(el);
    };
    talks.forEach((t) => keep.has(t.el) || hide(t.el));
    const inAgenda = (el: Element) => starred.some((t) => el.contains(t.el));
    document.querySelectorAll<HTMLElement>('.schedule-session, .schedule-day').forEach((el) => inAgenda(el) || hide(el));
    return () => hidden.forEach((el) => (el.hidden = false));
    // `starred` follows from `stars` (and `talks`, which never change).
  }, [mine, stars]);

  const toggle = (slug: string) => {
    const next = stars.includes(slug) ? stars.filter((s) => s !== slug) : [...stars, slug];
    setStars(next);
    writeStars(next);
  };

  return (
    <>
      {talks.length > 0 && (
        <div className="agenda">
          <button type="button" className="agenda__toggle" aria-pressed={mine} onClick={() => setMine(!mine)}>
            My agenda ({starred.length})
          </button>
          {starred.length > 0 && (
            <a className="agenda__ics" href={agendaUrl(icsPath, starred.map((t) => t.slug))}>
              Add my agenda to your calendar (.ics)
            </a>
          )}
          {/* Always there, so screen readers announce what appears in it. */}
          <p className="agenda__empty" role="status">
            {mine && starred.length === 0 ? 'No talk is starred yet. Star talks to list them here.' : ''}
          </p>
        </div>
      )}
      {starsShown && talks.map((t) => {
        const on = stars.includes(t.slug);
        return createPortal(
          <button type="button" className="star-button" aria-pressed={on} aria-label={`Star ${t.title}`} onClick={() => toggle(t.slug)}>
            <span aria-hidden="true">{on ? '★' : '☆'}</span>
          </button>,
          t.slot,
          `talk-${t.slug}`,
        );
      })}
      {sessions.map((s, i) => {
        const mark = marks[i];
        if (!mark) return null;
        return createPortal(
          <span className={`schedule-badge schedule-badge--${mark}`}>{mark === 'now' ? 'Now' : 'Next'}</span>,
          s.badgeSlot,
          `session-${i}`,
        );
      })}
    </>
  );
}
