// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ZoneSwitch from './ZoneSwitch';
import { ZONE_CHOICE_KEY } from '../lib/zoneChoice';

// The programme's markup as templates/pages/schedule.html renders it: a day heading, sessions
// with `data-starts` and their times as `clock`, the zone sentence, then the island's mount.
function session(start: string, end: string, title: string): string {
  const clock = (iso: string) => iso.slice(11, 16);
  return (
    `<li class="schedule-session" data-starts="${start}" data-ends="${end}">` +
    `<p class="schedule-session__time"><time datetime="${start}" data-zone-time="clock">${clock(start)}</time>–` +
    `<time datetime="${end}" data-zone-time="clock">${clock(end)}</time></p>` +
    `<h4 class="schedule-session__title">${title}</h4></li>`
  );
}

function day(date: string, label: string, sessions: string[]): string {
  return (
    `<section class="schedule-day"><h3 class="schedule-day__title"><time datetime="${date}">${label}</time></h3>` +
    `<ol class="schedule-sessions">${sessions.join('')}</ol></section>`
  );
}

const MANILA_PAGE =
  '<p class="schedule-zone">Times are in Manila time (UTC+08:00).</p><div id="mount"></div>' +
  day('2025-03-21', 'Friday, 21 March 2025', [
    session('2025-03-21T09:00:00+08:00', '2025-03-21T10:00:00+08:00', 'Opening'),
    session('2025-03-21T18:30:00+08:00', '2025-03-21T20:00:00+08:00', 'Dinner'),
  ]) +
  day('2025-03-22', 'Saturday, 22 March 2025', [session('2025-03-22T14:00:00+08:00', '2025-03-22T15:00:00+08:00', 'Closing')]);

/** Puts `page` on the document and mounts the island in its `#mount`, as a visitor in
 * `visitorZone` gets it. */
function mount(page: string, visitorZone: string, zone = 'Asia/Manila', zoneName = 'Manila time') {
  document.body.innerHTML = page;
  const container = document.getElementById('mount')!;
  render(<ZoneSwitch zone={zone} zoneName={zoneName} visitorZone={visitorZone} />, { container });
  return container;
}

const times = () => Array.from(document.querySelectorAll('time[data-zone-time]'), (t) => t.textContent);
const sentence = () => document.querySelector('.schedule-zone')!.textContent;
const headings = () => Array.from(document.querySelectorAll('.schedule-day__title'), (h) => h.textContent);

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  localStorage.clear();
});

describe('ZoneSwitch', () => {
  it('offers nothing where the clocks read as at the venue, whatever the zone is called', () => {
    for (const zone of ['Asia/Manila', 'Asia/Shanghai']) {
      const container = mount(MANILA_PAGE, zone);
      expect(container.innerHTML).toBe('');
      expect(times()).toEqual(['09:00', '10:00', '18:30', '20:00', '14:00', '15:00']);
      cleanup();
    }
  });

  it('is offered when the offsets differ on one conference day only', () => {
    // London moves to summer time in the night to 30 March 2025; Abidjan stays at UTC, as
    // London was the day before. Lisbon moves with London.
    const page =
      '<p class="schedule-zone">Times are in London time (UTC+00:00, then UTC+01:00).</p><div id="mount"></div>' +
      day('2025-03-29', 'Saturday, 29 March 2025', [session('2025-03-29T09:00:00+00:00', '2025-03-29T10:00:00+00:00', 'A')]) +
      day('2025-03-30', 'Sunday, 30 March 2025', [session('2025-03-30T09:00:00+01:00', '2025-03-30T10:00:00+01:00', 'B')]);
    expect(mount(page, 'Europe/Lisbon', 'Europe/London', 'London time').innerHTML).toBe('');
    cleanup();

    mount(page, 'Africa/Abidjan', 'Europe/London', 'London time');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Event time (London time)' }).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Your time (Africa/Abidjan)' }));
    expect(times()).toEqual(['09:00', '10:00', '08:00', '09:00']);
    expect(sentence()).toBe('Times are in your time, Africa/Abidjan (UTC+00:00).');
  });

  it('shows the visitor’s clock with the day it falls on, under the same headings, and gives the server’s text back', async () => {
    const user = userEvent.setup();
    mount(MANILA_PAGE, 'America/Los_Angeles');
    const served = document.body.innerHTML.replace(/<div id="mount">.*?<\/fieldset><\/div>/, '');
    expect(screen.getByRole('group', { name: 'Show times in' })).toBeTruthy();

    await user.click(screen.getByLabelText('Your time (America/Los_Angeles)'));
    // Los Angeles is on summer time (UTC−07:00) by 21 March: 09:00 in Manila is 18:00 the day before.
    expect(times()).toEqual(['18:00 −1 day', '19:00 −1 day', '03:30', '05:00', '23:00 −1 day', '00:00']);
    expect(document.querySelectorAll('.zone-day-shift')).toHaveLength(3);
    expect(sentence()).toBe('Times are in your time, America/Los_Angeles (UTC−07:00).');
    expect(headings()).toEqual(['Friday, 21 March 2025', 'Saturday, 22 March 2025']);

    await user.click(screen.getByLabelText('Event time (Manila time)'));
    expect(document.body.innerHTML.replace(/<div id="mount">.*?<\/fieldset><\/div>/, '')).toBe(served);
    expect(sentence()).toBe('Times are in Manila time (UTC+08:00).');
  });

  it('marks a time that falls on the next day', () => {
    mount(MANILA_PAGE, 'Pacific/Kiritimati');
    fireEvent.click(screen.getByLabelText('Your time (Pacific/Kiritimati)'));
    expect(times()).toEqual(['15:00', '16:00', '00:30 +1 day', '02:00 +1 day', '20:00', '21:00']);
    expect(sentence()).toBe('Times are in your time, Pacific/Kiritimati (UTC+14:00).');
  });

  it('remembers the choice for the next page', async () => {
    const user = userEvent.setup();
    mount(MANILA_PAGE, 'America/Los_Angeles');
    await user.click(screen.getByLabelText('Your time (America/Los_Angeles)'));
    expect(localStorage.getItem(ZONE_CHOICE_KEY)).toBe('local');
    cleanup();

    mount(MANILA_PAGE, 'America/Los_Angeles');
    expect(screen.getByLabelText<HTMLInputElement>('Your time (America/Los_Angeles)').checked).toBe(true);
    expect(times()[0]).toBe('18:00 −1 day');

    await user.click(screen.getByLabelText('Event time (Manila time)'));
    expect(localStorage.getItem(ZONE_CHOICE_KEY)).toBe('event');
    cleanup();
    mount(MANILA_PAGE, 'America/Los_Angeles');
    expect(times()[0]).toBe('09:00');
  });

  it('rewrites a session page’s date and reads its end against that date', () => {
    const page =
      '<p class="schedule-session__time session-page__time">' +
      '<time datetime="2025-03-21T09:00:00+08:00" data-zone-time="date-clock">Friday, 21 March 2025, 09:00</time>–' +
      '<time datetime="2025-03-21T10:00:00+08:00" data-zone-time="clock">10:00</time></p>' +
      '<p class="schedule-zone">Times are in Manila time (UTC+08:00).</p><div id="mount"></div>';
    mount(page, 'America/Los_Angeles');
    fireEvent.click(screen.getByLabelText('Your time (America/Los_Angeles)'));
    expect(times()).toEqual(['Thursday, 20 March 2025, 18:00', '19:00']);
  });
});

// The author's status page (templates/pages/submission_status.html): the talk's time in event
// time with the island's mount in the same line, and the zone sentence before.
function statusPage(start: string, end: string, day: string): string {
  return (
    '<p class="schedule-zone">Times are in Singapore time (UTC+08:00).</p>' +
    '<dl><dt>Day and time</dt><dd>' +
    `<time datetime="${start}" data-zone-time="date-clock">${day}, ${start.slice(11, 16)}</time>–` +
    `<time datetime="${end}" data-zone-time="clock">${end.slice(11, 16)}</time>` +
    '<div id="mount"></div></dd></dl>'
  );
}

/** Mounts the island in its line mode on `page`, as a visitor in `visitorZone` gets it. */
function mountLine(page: string, visitorZone: string) {
  document.body.innerHTML = page;
  const container = document.getElementById('mount')!;
  render(<ZoneSwitch zone="Asia/Singapore" zoneName="Singapore time" visitorZone={visitorZone} line />, { container });
  return container;
}

const TALK = statusPage('2025-03-22T09:00:00+08:00', '2025-03-22T09:20:00+08:00', 'Saturday, 22 March 2025');

describe('ZoneSwitch, line mode (the author’s own time)', () => {
  it('adds the talk’s day and times in the visitor’s zone under the event time, which stays as served', () => {
    const container = mountLine(TALK, 'America/Los_Angeles');
    expect(container.textContent).toBe('Your time (America/Los_Angeles): Friday, 21 March 2025, 18:00–18:20');
    expect(times()).toEqual(['Saturday, 22 March 2025, 09:00', '09:20']);
    expect(sentence()).toBe('Times are in Singapore time (UTC+08:00).');
    // No choice to make, and nothing remembered.
    expect(screen.queryByRole('radio')).toBeNull();
    expect(localStorage.getItem(ZONE_CHOICE_KEY)).toBeNull();
  });

  it('shows nothing where the visitor’s clock reads as the event’s', () => {
    for (const zone of ['Asia/Singapore', 'Asia/Manila', 'Australia/Perth']) {
      expect(mountLine(TALK, zone).innerHTML).toBe('');
      cleanup();
    }
  });

  it('ignores a remembered "Your time" choice of the programme', () => {
    localStorage.setItem(ZONE_CHOICE_KEY, 'local');
    mountLine(TALK, 'America/Los_Angeles');
    expect(times()).toEqual(['Saturday, 22 March 2025, 09:00', '09:20']);
    expect(sentence()).toBe('Times are in Singapore time (UTC+08:00).');
  });

  it('marks an end that falls on the day after the start', () => {
    // Kiritimati is six hours ahead of Singapore: a talk from 17:50 to 18:10 there ends after
    // midnight.
    const late = statusPage('2025-03-22T17:50:00+08:00', '2025-03-22T18:10:00+08:00', 'Saturday, 22 March 2025');
    expect(mountLine(late, 'Pacific/Kiritimati').textContent).toBe(
      'Your time (Pacific/Kiritimati): Saturday, 22 March 2025, 23:50–00:10 +1 day',
    );
    expect(document.querySelector('.zone-local .zone-day-shift')?.textContent).toBe('+1 day');
  });

  it('shows nothing when the page has no dated time', () => {
    const page = '<p><time datetime="2025-03-22T09:00:00+08:00" data-zone-time="clock">09:00</time></p><div id="mount"></div>';
    expect(mountLine(page, 'America/Los_Angeles').innerHTML).toBe('');
  });
});
