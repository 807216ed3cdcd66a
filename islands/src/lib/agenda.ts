// What the Agenda island reads from the programme's markup and decides from the clock (issue
// 31 item 4). The markup it reads (templates/pages/schedule.html and the talk lists):
//   <li class="schedule-session" data-starts="2025-03-21T09:00:00+08:00" data-ends="…">
//     <p class="schedule-session__time">…</p> …
//     <li class="schedule-talk" id="talk-<slug>" data-talk="<slug>">
//       <span class="schedule-talk__star" data-star-slot></span> <… data-talk-title>Title</…>

export interface Talk {
  slug: string;
  title: string;
  el: HTMLElement;
  /** Where its star button goes. */
  slot: HTMLElement;
}

export interface TimedSession {
  el: HTMLElement;
  starts: number;
  ends: number;
  /** Midnight of its day in the event's zone. */
  dayStarts: number;
  /** Where its "Now" / "Next" badge goes. */
  badgeSlot: HTMLElement;
}

export type Mark = 'now' | 'next' | null;

/** The page's talks with a star slot, in page order. */
export function talksOn(root: ParentNode): Talk[] {
  return Array.from(root.querySelectorAll<HTMLElement>('.schedule-talk[data-talk]')).flatMap((el) => {
    const slot = el.querySelector<HTMLElement>('[data-star-slot]');
    const slug = el.getAttribute('data-talk') ?? '';
    if (!slot || !slug) return [];
    const title = el.querySelector('[data-talk-title]')?.textContent?.replace(/\s+/g, ' ').trim() ?? slug;
    return [{ slug, title, el, slot }];
  });
}

/** `2025-03-21T09:00:00+08:00` → midnight of `2025-03-21` at that offset. */
function midnight(iso: string): number {
  const zone = /(Z|[+-]\d{2}:\d{2})$/.exec(iso)?.[1] ?? 'Z';
  return Date.parse(`${iso.slice(0, 10)}T00:00:00${zone}`);
}

/** The page's sessions with their times (those whose times cannot be read are left out). */
export function sessionsOn(root: ParentNode): TimedSession[] {
  return Array.from(root.querySelectorAll<HTMLElement>('.schedule-session[data-starts][data-ends]')).flatMap((el) => {
    const startsIso = el.getAttribute('data-starts') ?? '';
    const starts = Date.parse(startsIso);
    const ends = Date.parse(el.getAttribute('data-ends') ?? '');
    if (Number.isNaN(starts) || Number.isNaN(ends)) return [];
    const badgeSlot = el.querySelector<HTMLElement>('.schedule-session__time') ?? el;
    return [{ el, starts, ends, dayStarts: midnight(startsIso), badgeSlot }];
  });
}

/**
 * Each session's mark at `at`: `now` while it runs; `next` for the session(s) starting soonest
 * after `at`. Only during the conference, from midnight of its first day (event zone) to the
 * end of its last session; before and after, nothing is marked.
 */
export function marksAt(sessions: readonly TimedSession[], at: number): Mark[] {
  if (sessions.length === 0) return [];
  const opens = Math.min(...sessions.map((s) => s.dayStarts));
  const closes = Math.max(...sessions.map((s) => s.ends));
  if (at < opens || at >= closes) return sessions.map(() => null);
  const upcoming = sessions.filter((s) => s.starts > at).map((s) => s.starts);
  const next = upcoming.length ? Math.min(...upcoming) : NaN;
  return sessions.map((s) => (s.starts <= at && at < s.ends ? 'now' : s.starts === next ? 'next' : null));
}

/** Milliseconds from `at` until the marks may change (a session starts or ends, the
 * conference opens), or null when they never will again. */
export function untilChange(sessions: readonly TimedSession[], at: number): number | null {
  const later = sessions.flatMap((s) => [s.dayStarts, s.starts, s.ends]).filter((t) => t > at);
  return later.length ? Math.min(...later) - at : null;
}

/** The calendar of the starred talks, in page order: `/schedule/agenda.ics?talks=a,b`. */
export function agendaUrl(icsPath: string, slugs: readonly string[]): string {
  return `${icsPath}?talks=${slugs.map(encodeURIComponent).join(',')}`;
}
