// The programme's times in the visitor's zone (issue 31 item 4, DESIGN.md section 14). The
// server writes every time of day as
//   <time datetime="2025-03-21T09:00:00+08:00" data-zone-time="clock">09:00</time>
// (or `date-clock`: `Friday, 21 March 2025, 09:00`) in the event's zone, and names the zone in
// `<p class="schedule-zone">`. This module rewrites those texts for another zone and puts the
// server's back. Offsets come from Intl with an explicit zone, never from the machine's own,
// so tests can name any zone.

/** Elements this module rewrites. */
export const ZONE_TIMES = 'time[data-zone-time]';
export const ZONE_SENTENCE = '.schedule-zone';
/** Class of the `+1 day` / `−1 day` mark inside a rewritten time. */
export const DAY_SHIFT_CLASS = 'zone-day-shift';

const MINUS = '\u2212';
const DAY_MS = 86_400_000;

/** The visitor's IANA zone as the browser reports it (`UTC` when it reports none). */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** en-GB, as the server writes dates: weekday, day, month and year in words, 24-hour clock. */
function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formats.set(zone, f);
  }
  return f;
}

/** What a page needs of one instant in one zone. */
export interface ZonedTime {
  /** `2025-03-21`, the calendar day in that zone. */
  date: string;
  /** `09:00`. */
  clock: string;
  /** `Friday, 21 March 2025, 09:00`. */
  dateClock: string;
  /** Minutes east of UTC. */
  offset: number;
}

/** `instant` as read in `zone`. */
export function inZone(instant: Date, zone: string): ZonedTime {
  const parts: Record<string, string> = {};
  for (const p of format(zone).formatToParts(instant)) parts[p.type] = p.value;
  // `GMT+08:00`, `GMT-03:30`, or plain `GMT` at UTC.
  const m = /([+\u2212-])(\d{2}):(\d{2})/.exec(parts.timeZoneName ?? '');
  const offset = m ? (m[1] === '+' ? 1 : -1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const clock = `${parts.hour}:${parts.minute}`;
  return {
    date: new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 10),
    clock,
    dateClock: `${parts.weekday}, ${parts.day} ${parts.month} ${parts.year}, ${clock}`,
    offset,
  };
}

/** Minutes east of UTC of an RFC 3339 value (`…+08:00`). */
export function writtenOffset(iso: string): number {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(iso);
  return m ? (m[1] === '+' ? 1 : -1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** `UTC+08:00`, `UTC−07:00` (a real minus sign, as text is set). */
export function offsetLabel(minutes: number): string {
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${minutes < 0 ? MINUS : '+'}${hh}:${mm}`;
}

/** `+1 day`, `−1 day`, `+2 days`; '' for the same day. Days are `YYYY-MM-DD`. */
export function dayShift(day: string, readAgainst: string): string {
  const days = Math.round((Date.parse(day) - Date.parse(readAgainst)) / DAY_MS);
  if (days === 0) return '';
  return `${days > 0 ? '+' : MINUS}${Math.abs(days)} day${Math.abs(days) === 1 ? '' : 's'}`;
}

/** A time's `datetime` (read as an attribute: not every DOM has `HTMLTimeElement.dateTime`). */
const when = (t: Element): string => t.getAttribute('datetime') ?? '';

function zoneTimes(root: ParentNode): Element[] {
  return Array.from(root.querySelectorAll(ZONE_TIMES)).filter((t) => !Number.isNaN(Date.parse(when(t))));
}

/** The visitor's offsets at the page's times (in order, once each), and whether one differs
 * from the event's offset written on that time. */
export function visitorOffsets(root: ParentNode, zone: string): { offsets: number[]; differs: boolean } {
  let differs = false;
  const offsets: number[] = [];
  for (const t of zoneTimes(root)) {
    const { offset } = inZone(new Date(when(t)), zone);
    if (offset !== writtenOffset(when(t))) differs = true;
    if (!offsets.includes(offset)) offsets.push(offset);
  }
  return { offsets, differs };
}

/**
 * The day a `clock` time is read against: the day of a `date-clock` time before it in the same
 * line (a session page's `Friday, 21 March 2025, 09:00–10:00`), as shown in `zone`; else its
 * session's day in the event's zone (the day heading it sits under: `data-starts`), else its
 * own.
 */
function readAgainst(time: Element, zone: string): string {
  const dated = time.parentElement?.querySelector('time[data-zone-time="date-clock"]');
  if (dated && dated !== time && dated.compareDocumentPosition(time) & Node.DOCUMENT_POSITION_FOLLOWING) {
    return inZone(new Date(when(dated)), zone).date;
  }
  return (time.closest('[data-starts]')?.getAttribute('data-starts') ?? when(time)).slice(0, 10);
}

// The server's texts, kept the first time an element is rewritten, to put back exactly.
const served = new WeakMap<Element, string>();

function rewrite(el: Element, text: string, mark = ''): void {
  if (!served.has(el)) served.set(el, el.textContent ?? '');
  el.textContent = text;
  if (mark) {
    const span = el.ownerDocument.createElement('span');
    span.className = DAY_SHIFT_CLASS;
    span.textContent = mark;
    el.append(' ', span);
  }
}

function restore(el: Element): void {
  const text = served.get(el);
  if (text !== undefined) el.textContent = text;
}

/**
 * Shows every time under `root` in `zone` (the visitor's) with a day mark where a `clock` falls
 * on another day than the one it is read against (a `date-clock` names its day itself), and
 * says so in the zone sentence; `null` puts the server's texts back.
 */
export function showTimes(root: ParentNode, zone: string | null): void {
  const times = zoneTimes(root);
  const sentences = Array.from(root.querySelectorAll(ZONE_SENTENCE));
  if (zone === null) {
    times.forEach(restore);
    sentences.forEach(restore);
    return;
  }
  for (const t of times) {
    const shown = inZone(new Date(when(t)), zone);
    if (t.getAttribute('data-zone-time') === 'date-clock') rewrite(t, shown.dateClock);
    else rewrite(t, shown.clock, dayShift(shown.date, readAgainst(t, zone)));
  }
  const offsets = visitorOffsets(root, zone).offsets.map(offsetLabel);
  const label = offsets.length ? ` (${offsets.join(', then ')})` : '';
  for (const s of sentences) rewrite(s, `Times are in your time, ${zone}${label}.`);
}

/** A span of time restated in the visitor's zone (ZoneSwitch's `line` mode). */
export interface LocalSpan {
  /** `Friday, 21 March 2025, 18:00`. */
  start: string;
  /** `18:20`; '' when the span has no end time. */
  end: string;
  /** The end's day mark against the start's day (`+1 day`), or ''. */
  shift: string;
}

/**
 * The first `date-clock` time under `root` and the `clock` time after it in the same element
 * (its end: `Saturday, 22 March 2025, 09:20–09:40`), as read in `zone`; `null` when there is no
 * such time or `zone` reads both at the offsets written on them, so it would restate the
 * event's time. The author's status page shows this under the event time, which stays as
 * served (issue 31 item 6: the talk's time in event time and the author's own).
 */
export function localSpan(root: ParentNode, zone: string): LocalSpan | null {
  const times = zoneTimes(root);
  const at = times.findIndex((t) => t.getAttribute('data-zone-time') === 'date-clock');
  if (at < 0) return null;
  const start = times[at];
  const next = times[at + 1];
  const end = next?.parentElement === start.parentElement && next.getAttribute('data-zone-time') === 'clock' ? next : null;
  const from = inZone(new Date(when(start)), zone);
  const to = end ? inZone(new Date(when(end)), zone) : null;
  if (from.offset === writtenOffset(when(start)) && (!end || to?.offset === writtenOffset(when(end)))) return null;
  return { start: from.dateClock, end: to?.clock ?? '', shift: to ? dayShift(to.date, from.date) : '' };
}
