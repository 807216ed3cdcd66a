// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import Timeline from './Timeline';

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

afterEach(() => {
  vi.useRealTimers();
});

describe('Timeline markup', () => {
  it('matches the server fallback, struck through where the day is over in Manila', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-18T23:59:00+08:00'));
    const html = renderToStaticMarkup(<Timeline utcOffset="+08:00" items={items} />);
    expect(html).toBe(
      '<ol class="timeline">' +
        serverItem('2025-02-28', '28 February 2025', 'Abstract Submission Deadline', 'Abstracts.', true) +
        serverItem('2025-03-18', '18 March 2025', 'Full Paper Submission Due', 'Papers.', false) +
        '</ol>',
    );
  });

  it('strikes the deadline once its day is over', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-19T00:00:00+08:00'));
    const html = renderToStaticMarkup(<Timeline utcOffset="+08:00" items={items} />);
    expect(html.match(/timeline__item--past/g)).toHaveLength(2);
  });
});
