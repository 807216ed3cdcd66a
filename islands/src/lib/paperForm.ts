// The paper submission form's rules (spec sections 3, 5 and 8; DESIGN.md section 5), shared
// by the PaperForm island and its tests. The server (src/handlers/api/submission.rs) checks
// the same things in the same order with the same messages; this copy only saves a round
// trip.

import { toE164 } from './phone-field';
import { INVALID_EMAIL, INVALID_PHONE, isValidEmail, isValidPhone } from './validate';

/** The text fields the form sends, by their payload names (spec section 3). */
export type PaperField =
  | 'authorName'
  | 'number'
  | 'email'
  | 'country'
  | 'coAuthorName'
  | 'paperTitle'
  | 'department'
  | 'universityOrganization'
  | 'paperType'
  | 'presentationType'
  | 'message'
  | 'conferenceSource';

export type PaperValues = Record<PaperField, string>;

/** Field errors by payload name, plus `file`. */
export type PaperErrors = Partial<Record<PaperField | 'file', string>>;

export const EMPTY_VALUES: PaperValues = {
  authorName: '',
  number: '',
  email: '',
  country: '',
  coAuthorName: '',
  paperTitle: '',
  department: '',
  universityOrganization: '',
  paperType: '',
  presentationType: '',
  message: '',
  conferenceSource: '',
};

/** spec section 5 and 8, the first two checks. */
export const MISSING_FILE = 'Please upload your paper file';
export const MISSING_PAPER_TYPE = 'Please select a paper type';

/** spec section 8: toasts. The first success text starts with a space, as in the spec. */
export const SUCCESS_TOAST = ' Paper submitted successfully!';
export const FOLLOW_UP_TOAST = 'Our coordinator will contact you within 24-48 hours';
export const FAILURE_TOAST = 'Error submitting form. Please try again.';

/** spec section 5: the options. */
export const PAPER_TYPES = ['Abstract', 'Full Paper'] as const;
export const PRESENTATION_TYPES = ['Poster', 'Oral'] as const;

interface FieldRule {
  name: PaperField;
  label: string;
  /** Characters; the same as the page's `maxlength` and the server's limit. */
  max: number;
  missing: string;
}

/** The fields in the spec's order of checks (section 5: the file, then paperType, then
 *  authorName, phone, email, country, coAuthorName, paperTitle, department,
 *  universityOrganization, presentationType, message, conferenceSource). */
export const FIELD_RULES: readonly FieldRule[] = [
  { name: 'paperType', label: 'Paper type', max: 20, missing: MISSING_PAPER_TYPE },
  { name: 'authorName', label: 'Author name', max: 200, missing: 'Please enter the author name' },
  { name: 'number', label: 'Phone', max: 32, missing: 'Please enter your phone number' },
  { name: 'email', label: 'Email address', max: 254, missing: 'Please enter your email address' },
  { name: 'country', label: 'Country', max: 80, missing: 'Please enter your country' },
  { name: 'coAuthorName', label: 'Co-author name(s)', max: 500, missing: 'Please enter the co-author name(s)' },
  { name: 'paperTitle', label: 'Paper title', max: 300, missing: 'Please enter the paper title' },
  { name: 'department', label: 'Department', max: 200, missing: 'Please enter your department' },
  {
    name: 'universityOrganization',
    label: 'University / Organization',
    max: 200,
    missing: 'Please enter your university or organization',
  },
  { name: 'presentationType', label: 'Presentation type', max: 20, missing: 'Please select a presentation type' },
  { name: 'message', label: 'Message', max: 5000, missing: 'Please enter a message' },
  {
    name: 'conferenceSource',
    label: 'How did you hear about the conference?',
    max: 64,
    missing: 'Please select how you heard about the conference',
  },
];

/** What the drop zone accepts: MIME types with their extensions (react-dropzone `accept`). */
export const PAPER_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};

/** The accepted types in words, for 'File type must be {types}'. */
export const PAPER_TYPES_IN_WORDS = 'PDF, DOC or DOCX';

function check(name: PaperField, value: string, sources: readonly string[]): string | null {
  switch (name) {
    case 'email':
      return isValidEmail(value) ? null : INVALID_EMAIL;
    case 'number':
      return isValidPhone(value) ? null : INVALID_PHONE;
    case 'paperType':
      return (PAPER_TYPES as readonly string[]).includes(value) ? null : 'Paper type must be Abstract or Full Paper';
    case 'presentationType':
      return (PRESENTATION_TYPES as readonly string[]).includes(value) ? null : 'Presentation type must be Poster or Oral';
    case 'conferenceSource':
      return sources.includes(value) ? null : 'Please select one of the listed options';
    default:
      return null;
  }
}

export interface Verdict {
  /** The first problem in the spec's order: what the form says first. */
  first: string;
  errors: PaperErrors;
  /** Fields in the order their errors arose (for focusing the first). */
  order: Array<PaperField | 'file'>;
}

/** Checks the form in the spec's order; `null` when it may be sent. `sources` are the
 *  conferenceSource option values. */
export function validatePaper(values: PaperValues, file: File | null, sources: readonly string[]): Verdict | null {
  const errors: PaperErrors = {};
  const order: Array<PaperField | 'file'> = [];
  const fail = (name: PaperField | 'file', message: string) => {
    errors[name] = message;
    order.push(name);
  };
  if (!file) fail('file', MISSING_FILE);
  else if (file.size === 0) fail('file', 'The paper file is empty');
  for (const rule of FIELD_RULES) {
    const value = values[rule.name].trim();
    if (value === '') fail(rule.name, rule.missing);
    else if (value.length > rule.max) fail(rule.name, `${rule.label} is too long (at most ${rule.max} characters)`);
    else {
      const problem = check(rule.name, value, sources);
      if (problem) fail(rule.name, problem);
    }
  }
  return order.length === 0 ? null : { first: errors[order[0]]!, errors, order };
}

/** The drop zone's rejection codes in words (spec section 5's messages). Sizes in bytes. */
export function dropMessage(code: string, maxBytes: number, minBytes = 0): string {
  switch (code) {
    case 'file-invalid-type':
      return `File type must be ${PAPER_TYPES_IN_WORDS}`;
    case 'file-too-large':
      return `File is larger than ${maxBytes} bytes`;
    case 'file-too-small':
      return `File is smaller than ${minBytes} bytes`;
    case 'too-many-files':
      return 'Too many files';
    default:
      return 'This file cannot be used';
  }
}

/** Bytes for people: `834 bytes`, `12.5 KB`, `1.2 MB` (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${Number(size.toFixed(1))} ${units[unit]}`;
}

/** The multipart body: every field (trimmed), then the one part `file`. */
export function paperFormData(values: PaperValues, file: File): FormData {
  const data = new FormData();
  for (const rule of FIELD_RULES) data.append(rule.name, values[rule.name].trim());
  data.append('file', file, file.name);
  return data;
}

/** Whether a file's name says it is a PDF, DOC or DOCX (what the drop zone accepts; the
 *  server checks the content). */
export function looksLikePaper(file: File): boolean {
  return /\.(pdf|docx?)$/i.test(file.name);
}

/**
 * What a visitor typed into the server-rendered form before the island mounted, so mounting
 * loses nothing. `form` is that form (still in the page during the island's first render).
 * The phone is turned into E.164, which the phone input takes ('' when it is no number).
 */
export function readServerForm(form: HTMLFormElement | null): { values: PaperValues; file: File | null } {
  const values = { ...EMPTY_VALUES };
  if (!form) return { values, file: null };
  const data = new FormData(form);
  for (const name of Object.keys(values) as PaperField[]) {
    const value = data.get(name);
    if (typeof value === 'string') values[name] = value;
  }
  values.number = toE164(values.number);
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  const chosen = input?.files?.[0] ?? null;
  return { values, file: chosen && chosen.size > 0 && looksLikePaper(chosen) ? chosen : null };
}
