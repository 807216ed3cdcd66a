// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoot, type Root } from 'react-dom/client';
import Countdown from './Countdown';

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

const values = (el: Element) => Array.from(el.querySelectorAll('.countdown__value'), (v) => v.textContent);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Countdown markup', () => {
  it('has the same structure and classes as the server fallback', () => {
    vi.setSystemTime(targetMs - ((12 * 24 + 5) * 3600 + 4 * 60 + 3) * 1000);
    expect(renderToStaticMarkup(<Countdown target={TARGET} />)).toBe(serverMarkup('12', '05', '04', '03'));
  });

  it('shows zeros once the target has passed', () => {
    vi.setSystemTime(targetMs + 5000);
    expect(renderToStaticMarkup(<Countdown target={TARGET} />)).toBe(serverMarkup('00', '00', '00', '00'));
  });

  it('does not pad days beyond two digits', () => {
    vi.setSystemTime(targetMs - 123 * 24 * 3600 * 1000);
    expect(renderToStaticMarkup(<Countdown target={TARGET} />)).toBe(serverMarkup('123', '00', '00', '00'));
  });

  it('throws for a target that is not a date-time, so the runtime keeps the fallback', () => {
    expect(() => renderToStaticMarkup(<Countdown target="soon" />)).toThrow(/not an RFC 3339 date-time/);
  });
});

describe('Countdown ticking', () => {
  let root: Root;
  let el: HTMLElement;
  beforeEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    el = document.createElement('div');
    document.body.append(el);
    root = createRoot(el);
  });
  afterEach(() => {
    act(() => root.unmount());
    el.remove();
  });

  it('ticks every second and stops at zero', () => {
    vi.setSystemTime(targetMs - 2500);
    act(() => root.render(<Countdown target={TARGET} />));
    expect(values(el)).toEqual(['00', '00', '00', '02']);
    expect(vi.getTimerCount()).toBe(1);

    act(() => vi.advanceTimersByTime(1000));
    expect(values(el)).toEqual(['00', '00', '00', '01']);
    act(() => vi.advanceTimersByTime(1000));
    expect(values(el)).toEqual(['00', '00', '00', '00']);
    act(() => vi.advanceTimersByTime(1000));
    expect(values(el)).toEqual(['00', '00', '00', '00']);
    expect(vi.getTimerCount()).toBe(0); // interval cleared: it stays still

    act(() => vi.advanceTimersByTime(60_000));
    expect(values(el)).toEqual(['00', '00', '00', '00']);
  });

  it('rolls over minutes, hours and days', () => {
    vi.setSystemTime(targetMs - (24 * 3600 + 1) * 1000);
    act(() => root.render(<Countdown target={TARGET} />));
    expect(values(el)).toEqual(['01', '00', '00', '01']);
    act(() => vi.advanceTimersByTime(1000));
    expect(values(el)).toEqual(['01', '00', '00', '00']);
    act(() => vi.advanceTimersByTime(1000));
    expect(values(el)).toEqual(['00', '23', '59', '59']);
  });

  it('starts no timer when the target has already passed', () => {
    vi.setSystemTime(targetMs + 1);
    act(() => root.render(<Countdown target={TARGET} />));
    expect(values(el)).toEqual(['00', '00', '00', '00']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its interval when unmounted', () => {
    vi.setSystemTime(targetMs - 60_000);
    act(() => root.render(<Countdown target={TARGET} />));
    expect(vi.getTimerCount()).toBe(1);
    act(() => root.unmount());
    expect(vi.getTimerCount()).toBe(0);
    root = createRoot(el); // for afterEach
  });
});
