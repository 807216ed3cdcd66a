// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import Countdown from './Countdown';
import { parsedHtml, serverRendered } from '../test-utils';

const TARGET = '2025-03-21T00:00:00+08:00';
const targetMs = Date.parse(TARGET);

// The markup the server renders as the fallback; the island must match it exactly.
function serverMarkup(d: string, h: string, m: string, s: string): string {
  const unit = (v: string, l: string) =>
    `<div class="countdown__unit"><span class="countdown__value">${v}</span> <span class="countdown__label">${l}</span></div>`;
  return (
    '<div class="countdown" role="timer" aria-label="Time left until the conference opens">' +
    unit(d, 'Days') + unit(h, 'Hours') + unit(m, 'Minutes') + unit(s, 'Seconds') +
    '</div>'
  );
}

/** The four numbers of the timer, days first. */
const values = () =>
  Array.from(
    within(screen.getByRole('timer', { name: 'Time left until the conference opens' })).getAllByText(/^\d+$/),
    (v) => v.textContent,
  );

/** Mounts the island over the server's fallback and returns the markup it leaves. */
function mountedOver(fallback: string): string {
  const container = serverRendered(fallback);
  const served = container.firstElementChild;
  render(<Countdown target={TARGET} />, { container });
  expect(container.firstElementChild).not.toBe(served); // the island's own markup, not the fallback
  return container.innerHTML;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Countdown markup', () => {
  it('has the same structure and classes as the server fallback', () => {
    vi.setSystemTime(targetMs - ((12 * 24 + 5) * 3600 + 4 * 60 + 3) * 1000);
    const fallback = serverMarkup('12', '05', '04', '03');
    expect(mountedOver(fallback)).toBe(parsedHtml(fallback));
  });

  it('shows zeros once the target has passed', () => {
    vi.setSystemTime(targetMs + 5000);
    expect(mountedOver(serverMarkup('00', '00', '00', '01'))).toBe(parsedHtml(serverMarkup('00', '00', '00', '00')));
  });

  it('does not pad days beyond two digits', () => {
    vi.setSystemTime(targetMs - 123 * 24 * 3600 * 1000);
    expect(mountedOver(serverMarkup('123', '00', '00', '00'))).toBe(parsedHtml(serverMarkup('123', '00', '00', '00')));
  });

  it('throws for a target that is not a date-time, so the runtime keeps the fallback', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Countdown target="soon" />)).toThrow(/not an RFC 3339 date-time/);
  });
});

describe('Countdown ticking', () => {
  // Advancing fake timers runs the island's interval outside any event, hence act().
  const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it('ticks every second and stops at zero', () => {
    vi.setSystemTime(targetMs - 2500);
    render(<Countdown target={TARGET} />);
    expect(values()).toEqual(['00', '00', '00', '02']);
    expect(vi.getTimerCount()).toBe(1);

    tick(1000);
    expect(values()).toEqual(['00', '00', '00', '01']);
    tick(1000);
    expect(values()).toEqual(['00', '00', '00', '00']);
    tick(1000);
    expect(values()).toEqual(['00', '00', '00', '00']);
    expect(vi.getTimerCount()).toBe(0); // interval cleared: it stays still

    tick(60_000);
    expect(values()).toEqual(['00', '00', '00', '00']);
  });

  it('rolls over minutes, hours and days', () => {
    vi.setSystemTime(targetMs - (24 * 3600 + 1) * 1000);
    render(<Countdown target={TARGET} />);
    expect(values()).toEqual(['01', '00', '00', '01']);
    tick(1000);
    expect(values()).toEqual(['01', '00', '00', '00']);
    tick(1000);
    expect(values()).toEqual(['00', '23', '59', '59']);
  });

  it('starts no timer when the target has already passed', () => {
    vi.setSystemTime(targetMs + 1);
    render(<Countdown target={TARGET} />);
    expect(values()).toEqual(['00', '00', '00', '00']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its interval when unmounted', () => {
    vi.setSystemTime(targetMs - 60_000);
    const { unmount } = render(<Countdown target={TARGET} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
