// Papers sent through the public submission API, as the specs that need a submission to act
// on (decisions, downloads) make them.
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The smallest PDF the upload check takes. */
export const SMALL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** The submission form's fields a spec may choose (the rest are the defaults below). */
export interface Authors {
  authorName?: string;
  coAuthorName?: string;
  department?: string;
  universityOrganization?: string;
}

/**
 * Sends a Full Paper titled `title` by `email` with `file` as its PDF, by `authors` (default
 * Ana Cruz and Ben Reyes of the University of Manila); its reference.
 */
export async function submitPaper(
  page: Page,
  email: string,
  title: string,
  file: Buffer = SMALL_PDF,
  authors: Authors = {},
): Promise<string> {
  // From the page's origin once it has one, as the form on it would post.
  const headers: Record<string, string> = page.url().startsWith('http') ? { origin: new URL(page.url()).origin } : {};
  const response = await page.request.post('/api/paper-submission', {
    headers,
    multipart: {
      authorName: authors.authorName ?? 'Ana Cruz',
      coAuthorName: authors.coAuthorName ?? 'Ben Reyes',
      number: '+639171234567',
      email,
      country: 'Philippines',
      paperTitle: title,
      department: authors.department ?? 'Electrical Engineering',
      universityOrganization: authors.universityOrganization ?? 'University of Manila',
      paperType: 'Full Paper',
      presentationType: 'Oral',
      conferenceSource: 'linkedin',
      message: 'Keywords: tides.',
      file: { name: 'paper.pdf', mimeType: 'application/pdf', buffer: file },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).reference as string;
}
