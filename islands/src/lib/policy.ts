// The footer's policy panel reads a policy's sections from that policy's own page, where
// templates/pages/policy.html marks them: `data-policy-heading="ID"` on each heading and
// `data-policy-text="ID"` on each of its paragraphs. The page is the single source of the text.

export interface PolicySummary {
  slug: string;
  name: string;
  /** The policy page, e.g. `/Privacy-Policy`. */
  link: string;
  summary: string;
}

export interface PolicySectionText {
  id: string;
  heading: string;
  paragraphs: string[];
}

const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The marked sections of a parsed policy page, in page order. */
export function extractPolicySections(doc: ParentNode): PolicySectionText[] {
  const texts = Array.from(doc.querySelectorAll<HTMLElement>('[data-policy-text]'));
  return Array.from(doc.querySelectorAll<HTMLElement>('[data-policy-heading]')).map((h) => {
    const id = h.getAttribute('data-policy-heading') ?? '';
    return {
      id,
      heading: clean(h.textContent),
      paragraphs: texts.filter((p) => p.getAttribute('data-policy-text') === id).map((p) => clean(p.textContent)),
    };
  });
}

/** Fetches a policy page and returns its sections; rejects on a network error or non-2xx. */
export async function loadPolicySections(link: string, fetcher: typeof fetch = fetch): Promise<PolicySectionText[]> {
  const response = await fetcher(link, { headers: { Accept: 'text/html' } });
  if (!response.ok) throw new Error(`${link} answered ${response.status}`);
  const html = await response.text();
  // DOMParser documents run no scripts and load no images.
  return extractPolicySections(new DOMParser().parseFromString(html, 'text/html'));
}
