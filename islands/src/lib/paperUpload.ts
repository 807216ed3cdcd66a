// Sending the paper form: one multipart POST to /api/paper-submission (DESIGN.md section 5)
// through XMLHttpRequest, whose `upload.onprogress` reports the bytes sent (fetch cannot).

import type { PaperErrors } from './paperForm';

export const SUBMISSION_URL = '/api/paper-submission';

export type UploadResult =
  | { ok: true; id: number; reference: string }
  /** `status` 0 means the request never got an answer (network down, aborted). */
  | { ok: false; status: number; message: string | null; errors: PaperErrors };

/** What the progress handler reads of a ProgressEvent. */
export type UploadProgress = { lengthComputable: boolean; loaded: number; total: number };
// Method syntax is checked bivariantly, so XMLHttpRequest's handler (which takes a full
// ProgressEvent) fits, and tests may call it with a plain UploadProgress.
type ProgressHandler = { handle(event: UploadProgress): void }['handle'];
type EventHandler = { handle(event?: unknown): void }['handle'];

/** The XMLHttpRequest surface used here; tests pass a fake. */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { onprogress: ProgressHandler | null };
  onload: EventHandler | null;
  onerror: EventHandler | null;
  onabort: EventHandler | null;
}

/** Percent (0-100, whole numbers) of the body sent, or null when the size is unknown. */
export function percent(loaded: number, total: number, lengthComputable: boolean): number | null {
  if (!lengthComputable || total <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Reads an answer: 201 `{"id","reference"}`, or `{"message","errors"}` for a refusal. */
export function readAnswer(status: number, text: string): UploadResult {
  const body = parse(text);
  if (status === 201 && body && typeof body.reference === 'string') {
    return { ok: true, id: Number(body.id), reference: body.reference };
  }
  const errors: PaperErrors = {};
  if (body && body.errors && typeof body.errors === 'object') {
    for (const [key, value] of Object.entries(body.errors as Record<string, unknown>)) {
      if (typeof value === 'string') (errors as Record<string, string>)[key] = value;
    }
  }
  const message = body && typeof body.message === 'string' ? body.message : null;
  return { ok: false, status, message, errors };
}

/** Sends `data`; `onProgress` gets whole percents as the upload goes. Never rejects. */
export function uploadPaper(
  data: FormData,
  onProgress: (percent: number) => void,
  makeXhr: () => XhrLike = () => new XMLHttpRequest(),
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = makeXhr();
    xhr.open('POST', SUBMISSION_URL);
    // JSON answers (a plain form post asks for HTML and is redirected instead).
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      const p = percent(event.loaded, event.total, event.lengthComputable);
      if (p !== null) onProgress(p);
    };
    xhr.onload = () => resolve(readAnswer(xhr.status, xhr.responseText));
    xhr.onerror = () => resolve({ ok: false, status: 0, message: null, errors: {} });
    xhr.onabort = xhr.onerror;
    xhr.send(data);
  });
}
