// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import Timeline from './Timeline';
import { parsedHtml, serverRendered } from '../test-utils';

// The markup templates/partials/timeline.html renders; the island must match it exactly so
// mounting moves nothing.
function serverItem(date: string, label: string, title: string, description: string, passed: boolean): string {
  return (
    `<li class="timeline__item${passed ? ' timeline__item--past' : ''}">` +
    `<time class="timeline__date" dateTime="${date}">${passed ? `<del>${label}</del>` : label}</time>` +
    `<h3 class="timeline__title">${passed ? `<del>${title}</del> <span class="visually-hidden">(passed)</span>` : title}</h3>` +
    `<p class="timeline__description">${description}</p></li>`
  );
}

const items = [
  { date: '2025-02-28', label: '28 February 2025', title: 'Abstract Submission Deadline', description: 'Abstracts.' },
  { date: '2025-03-18', label: '18 March 2025', title: 'Full Paper Submission Due', description: 'Papers.' },
];

/** The list as the server rendered it, with the given days marked as passed. */
const serverList = (passed: [boolean, boolean]) =>
  '<ol class="timeline">' +
  serverItem('2025-02-28', '28 February 2025', 'Abstract Submission Deadline', 'Abstracts.', passed[0]) +
  serverItem('2025-03-18', '18 March 2025', 'Full Paper Submission Due', 'Papers.', passed[1]) +
  '</ol>';

/** Mounts the island over the server's list. */
function mountOver(fallback: string): HTMLElement {
  const container = serverRendered(fallback);
  const served = container.firstElementChild;
  render(<Timeline utcOffset="+08:00" items={items} />, { container });
  expect(container.firstElementChild).not.toBe(served); // the island's own markup, not the fallback
  return container;
}

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('Timeline markup', () => {
  it('matches the server fallback, struck through where the day is over in Manila', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-18T23:59:00+08:00'));
    const fallback = serverList([true, false]);
    expect(mountOver(fallback).innerHTML).toBe(parsedHtml(fallback));
  });

  it('strikes the deadline once its day is over', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-19T00:00:00+08:00'));
    // The page was rendered the day before; the visitor's clock has moved on since.
    const container = mountOver(serverList([true, false]));
    expect(container.innerHTML.match(/timeline__item--past/g)).toHaveLength(2);
    expect(screen.getAllByText('(passed)')).toHaveLength(2);
  });
});
