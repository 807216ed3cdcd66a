import { describe, expect, it } from 'vitest';
import {
  EMPTY_VALUES,
  FIELD_RULES,
  MISSING_FILE,
  MISSING_PAPER_TYPE,
  dropMessage,
  formatBytes,
  looksLikePaper,
  paperFormData,
  validatePaper,
  type PaperValues,
} from './paperForm';

const SOURCES = ['conference-alerts', 'email', 'linkedin', 'others'];

const GOOD: PaperValues = {
  authorName: 'Ana Cruz',
  number: '+639171234567',
  email: 'ana@example.org',
  country: 'Philippines',
  coAuthorName: 'Ben Reyes',
  paperTitle: 'Solar microgrids',
  department: 'Engineering',
  universityOrganization: 'University of Manila',
  paperType: 'Full Paper',
  presentationType: 'Oral',
  message: 'Hello',
  conferenceSource: 'linkedin',
};

const pdf = (size = 12) => new File([new Uint8Array(size)], 'paper.pdf', { type: 'application/pdf' });

describe('validatePaper', () => {
  it('passes a complete form', () => {
    expect(validatePaper(GOOD, pdf(), SOURCES)).toBeNull();
  });

  it('checks the file first, then the paper type, then the fields in the spec order', () => {
    const all = validatePaper(EMPTY_VALUES, null, SOURCES)!;
    expect(all.first).toBe(MISSING_FILE);
    expect(all.order).toEqual([
      'file',
      'paperType',
      'authorName',
      'number',
      'email',
      'country',
      'coAuthorName',
      'paperTitle',
      'department',
      'universityOrganization',
      'presentationType',
      'message',
      'conferenceSource',
    ]);

    const withFile = validatePaper(EMPTY_VALUES, pdf(), SOURCES)!;
    expect(withFile.first).toBe(MISSING_PAPER_TYPE);
    expect(withFile.errors.file).toBeUndefined();

    const withType = validatePaper({ ...EMPTY_VALUES, paperType: 'Abstract' }, pdf(), SOURCES)!;
    expect(withType.first).toBe('Please enter the author name');
  });

  it('refuses an empty file, blank fields, bad formats, unknown options and long values', () => {
    expect(validatePaper(GOOD, pdf(0), SOURCES)!.errors).toEqual({ file: 'The paper file is empty' });
    expect(validatePaper({ ...GOOD, country: '   ' }, pdf(), SOURCES)!.errors).toEqual({ country: 'Please enter your country' });
    expect(validatePaper({ ...GOOD, email: 'ana@cruz' }, pdf(), SOURCES)!.first).toBe('Please enter a valid email address');
    expect(validatePaper({ ...GOOD, number: 'call me' }, pdf(), SOURCES)!.first).toBe('Please enter a valid phone number');
    expect(validatePaper({ ...GOOD, paperType: 'Poster' }, pdf(), SOURCES)!.first).toBe('Paper type must be Abstract or Full Paper');
    expect(validatePaper({ ...GOOD, presentationType: 'Video' }, pdf(), SOURCES)!.first).toBe(
      'Presentation type must be Poster or Oral',
    );
    expect(validatePaper({ ...GOOD, conferenceSource: 'tiktok' }, pdf(), SOURCES)!.first).toBe(
      'Please select one of the listed options',
    );
    expect(validatePaper({ ...GOOD, paperTitle: 'x'.repeat(301) }, pdf(), SOURCES)!.first).toBe(
      'Paper title is too long (at most 300 characters)',
    );
    expect(validatePaper({ ...GOOD, paperTitle: 'x'.repeat(300) }, pdf(), SOURCES)).toBeNull();
  });
});

describe('drop zone messages', () => {
  it('says each rejection in the spec words', () => {
    expect(dropMessage('file-invalid-type', 20)).toBe('File type must be PDF, DOC or DOCX');
    expect(dropMessage('file-too-large', 20971520)).toBe('File is larger than 20971520 bytes');
    expect(dropMessage('file-too-small', 20, 1)).toBe('File is smaller than 1 bytes');
    expect(dropMessage('too-many-files', 20)).toBe('Too many files');
  });

  it('tells papers by their extension', () => {
    for (const name of ['a.pdf', 'B.PDF', 'c.doc', 'd.docx']) expect(looksLikePaper(new File(['x'], name))).toBe(true);
    for (const name of ['a.png', 'pdf', 'a.pdf.exe']) expect(looksLikePaper(new File(['x'], name))).toBe(false);
  });
});

describe('formatBytes', () => {
  it('writes sizes for people', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(834)).toBe('834 bytes');
    expect(formatBytes(12_800)).toBe('12.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
  });
});

describe('paperFormData', () => {
  it('sends every field trimmed and the file as the one part `file`', () => {
    const data = paperFormData({ ...GOOD, authorName: '  Ana Cruz ' }, pdf());
    for (const rule of FIELD_RULES) expect(data.getAll(rule.name)).toHaveLength(1);
    expect(data.get('authorName')).toBe('Ana Cruz');
    const files = data.getAll('file');
    expect(files).toHaveLength(1);
    expect((files[0] as File).name).toBe('paper.pdf');
  });
});
