// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { extractPolicySections, loadPolicySections } from './policy';

// The markup templates/pages/policy.html renders (accordion and plain variants).
const ACCORDION = `<main><div class="accordion">
  <details id="s1"><summary><h2 data-policy-heading="s1">Who  we are</h2></summary>
    <div><p data-policy-text="s1">First
      paragraph.</p><p data-policy-text="s1">Second.</p></div></details>
  <details id="s2"><summary><h2 data-policy-heading="s2">Rights</h2></summary>
    <div><p data-policy-text="s2">Write to us.</p></div></details>
</div><p>Questions? Write to us.</p></main>`;

const PLAIN = `<div class="prose"><h2 id="c1" data-policy-heading="c1">Scope</h2><p data-policy-text="c1">All registrations.</p>
<h2 id="c2" data-policy-heading="c2">Empty</h2></div>`;

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('policy sections from a policy page', () => {
  it('reads headings and their paragraphs in page order', () => {
    expect(extractPolicySections(parse(ACCORDION))).toEqual([
      { id: 's1', heading: 'Who we are', paragraphs: ['First paragraph.', 'Second.'] },
      { id: 's2', heading: 'Rights', paragraphs: ['Write to us.'] },
    ]);
  });

  it('reads the plain variant too, and leaves unmarked text out', () => {
    expect(extractPolicySections(parse(PLAIN))).toEqual([
      { id: 'c1', heading: 'Scope', paragraphs: ['All registrations.'] },
      { id: 'c2', heading: 'Empty', paragraphs: [] },
    ]);
  });

  it('fetches the page and parses it', async () => {
    const fetcher = vi.fn(async () => new Response(ACCORDION, { status: 200 }));
    const sections = await loadPolicySections('/Privacy-Policy', fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledWith('/Privacy-Policy', expect.anything());
    expect(sections.map((s) => s.heading)).toEqual(['Who we are', 'Rights']);
  });

  it('rejects when the page does not answer 2xx', async () => {
    const fetcher = vi.fn(async () => new Response('nope', { status: 500 }));
    await expect(loadPolicySections('/Privacy-Policy', fetcher as unknown as typeof fetch)).rejects.toThrow(/500/);
  });
});
