// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import Agenda from './Agenda';
import { STARS_KEY } from '../lib/stars';

// The programme's markup (templates/pages/schedule.html, and the talk lists that will sit in
// its sessions): sessions with `data-starts` / `data-ends`, talks with a star slot and a title.
function talk(slug: string, title: string): string {
  return (
    `<li class="schedule-talk" id="talk-${slug}" data-talk="${slug}">` +
    `<span class="schedule-talk__star" data-star-slot></span> <span data-talk-title>${title}</span></li>`
  );
}

function session(start: string, end: string, title: string, talks: string[] = []): string {
  return (
    `<li class="schedule-session" data-starts="${start}" data-ends="${end}">` +
    `<p class="schedule-session__time"><time datetime="${start}">${start.slice(11, 16)}</time>–` +
    `<time datetime="${end}">${end.slice(11, 16)}</time></p>` +
    `<h4 class="schedule-session__title">${title}</h4>` +
    (talks.length ? `<ol class="schedule-talks">${talks.join('')}</ol>` : '') +
    '</li>'
  );
}

const PAGE =
  '<div id="mount"></div>' +
  '<section class="schedule-day" id="day-1"><ol>' +
  session('2025-03-21T09:00:00+08:00', '2025-03-21T10:00:00+08:00', 'Opening') +
  session('2025-03-21T10:15:00+08:00', '2025-03-21T11:00:00+08:00', 'Keynote', [talk('tides', 'Computing with tides')]) +
  '</ol></section><section class="schedule-day" id="day-2"><ol>' +
  session('2025-03-22T09:00:00+08:00', '2025-03-22T12:00:00+08:00', 'Session A', [
    talk('engines', 'Tidal engines'),
    talk('locks', 'Harbour locks'),
  ]) +
  session('2025-03-22T09:00:00+08:00', '2025-03-22T12:00:00+08:00', 'Session B', [talk('lamps', 'Lamps & wicks')]) +
  '</ol></section>';

const at = (iso: string) => () => Date.parse(iso);

function mount(now = at('2025-01-01T00:00:00Z')) {
  document.body.innerHTML = PAGE;
  const container = document.getElementById('mount')!;
  render(<Agenda icsPath="/schedule/agenda.ics" now={now} />, { container });
  return container;
}

const star = (title: string) => screen.getByRole('button', { name: `Star ${title}` });
/** What of `selector` a visitor sees (nothing hidden on the way up), by title or id. */
const shown = (selector: string, name = '[data-talk-title], .schedule-session__title') =>
  Array.from(document.querySelectorAll<HTMLElement>(selector))
    .filter((el) => !el.closest('[hidden]'))
    .map((el) => (name ? el.querySelector(name)?.textContent : el.id));
const marked = () =>
  Array.from(document.querySelectorAll('.schedule-session')).flatMap((s) => {
    const badge = s.querySelector('.schedule-badge')?.textContent;
    const title = s.querySelector('.schedule-session__title')!.textContent;
    return badge ? [`${badge}: ${title}${s.getAttribute('aria-current') === 'true' ? ' (current)' : ''}`] : [];
  });

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Agenda stars', () => {
  it('puts a star on every talk, keeps the starred ones and links their calendar in page order', () => {
    mount();
    for (const title of ['Computing with tides', 'Tidal engines', 'Harbour locks', 'Lamps & wicks']) {
      expect(star(title).getAttribute('aria-pressed')).toBe('false');
      expect(star(title).closest('[data-star-slot]')).not.toBeNull();
    }
    expect(screen.getByRole('button', { name: 'My agenda (0)' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('link', { name: /Add my agenda/ })).toBeNull();

    fireEvent.click(star('Lamps & wicks'));
    fireEvent.click(star('Computing with tides'));
    expect(star('Lamps & wicks').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'My agenda (2)' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add my agenda to your calendar (.ics)' }).getAttribute('href')).toBe(
      '/schedule/agenda.ics?talks=tides,lamps',
    );
    expect(JSON.parse(localStorage.getItem(STARS_KEY)!)).toEqual(['lamps', 'tides']);

    fireEvent.click(star('Lamps & wicks'));
    expect(star('Lamps & wicks').getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('link', { name: /Add my agenda/ }).getAttribute('href')).toBe('/schedule/agenda.ics?talks=tides');
  });

  it('remembers the stars for the next visit', () => {
    localStorage.setItem(STARS_KEY, JSON.stringify(['locks', 'a-talk-of-another-page']));
    mount();
    expect(star('Harbour locks').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'My agenda (1)' })).toBeTruthy();
    // A star of a talk this page does not list stays stored.
    fireEvent.click(star('Tidal engines'));
    expect(JSON.parse(localStorage.getItem(STARS_KEY)!)).toEqual(['locks', 'a-talk-of-another-page', 'engines']);
  });

  it('My agenda shows only the starred talks, their sessions and days, and everything again when turned off', () => {
    mount();
    fireEvent.click(star('Harbour locks'));
    const toggle = screen.getByRole('button', { name: 'My agenda (1)' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(shown('.schedule-talk')).toEqual(['Harbour locks']);
    expect(shown('.schedule-session')).toEqual(['Session A']);
    expect(shown('.schedule-day', '')).toEqual(['day-2']);

    // Starring from inside My agenda shows that talk too.
    fireEvent.click(star('Harbour locks'));
    expect(shown('.schedule-talk')).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('No talk is starred yet. Star talks to list them here.');

    fireEvent.click(toggle);
    expect(shown('.schedule-talk')).toEqual(['Computing with tides', 'Tidal engines', 'Harbour locks', 'Lamps & wicks']);
    expect(shown('.schedule-session')).toEqual(['Opening', 'Keynote', 'Session A', 'Session B']);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('Agenda now and next', () => {
  it('marks the running session Now and the one after it Next', () => {
    mount(at('2025-03-21T09:30:00+08:00'));
    expect(marked()).toEqual(['Now: Opening (current)', 'Next: Keynote']);
  });

  it('marks every session starting next, the next day’s included, and nothing outside the conference', () => {
    mount(at('2025-03-21T11:30:00+08:00'));
    expect(marked()).toEqual(['Next: Session A', 'Next: Session B']);
    cleanup();
    mount(at('2025-03-21T07:00:00+08:00')); // the first day, before the opening
    expect(marked()).toEqual(['Next: Opening']);
    cleanup();
    mount(at('2025-03-20T23:59:00+08:00'));
    expect(marked()).toEqual([]);
    cleanup();
    mount(at('2025-03-22T12:00:00+08:00'));
    expect(marked()).toEqual([]);
  });

  it('moves the marks on as the clock passes a session’s end', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-21T09:59:00+08:00'));
    mount(() => Date.now());
    expect(marked()).toEqual(['Now: Opening (current)', 'Next: Keynote']);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(marked()).toEqual(['Next: Keynote']);
    expect(document.querySelector('[aria-current]')).toBeNull();
    act(() => void vi.advanceTimersByTime(15 * 60_000));
    expect(marked()).toEqual(['Now: Keynote (current)', 'Next: Session A', 'Next: Session B']);
  });

  it('opens the page at the current session, unless the address names a place', () => {
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {});
    mount(at('2025-03-22T10:00:00+08:00'));
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(document.querySelectorAll('.schedule-session')[2]);
    cleanup();

    scrolled.mockClear();
    window.history.replaceState(null, '', '/#talk-tides');
    mount(at('2025-03-22T10:00:00+08:00'));
    expect(scrolled).not.toHaveBeenCalled();
  });
});
