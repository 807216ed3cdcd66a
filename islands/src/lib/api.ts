// Sending a form to the server's JSON API (DESIGN.md section 5), for every island that posts.
//
//   const answer = await postJson<{ id: string }>('/api/contact', values);
//
// Resolves with the parsed JSON of a 2xx answer (and its status: the newsletter tells 201
// from 200). Rejects with an ApiError for anything else: a 4xx/5xx (with the server's
// `message` and field `errors` when it sent them), an answer that is not JSON, or no answer at
// all (offline, connection cut): status 0.

/** Field errors of a 422, keyed by the payload's own field names. */
export type FieldErrors = Record<string, string>;

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** Field errors of a 422; empty otherwise. */
  readonly errors: FieldErrors;

  constructor(status: number, message: string, errors: FieldErrors = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

export interface ApiAnswer<T> {
  status: number;
  data: T;
}

/** POSTs `body` as JSON to `url` (same origin) and reads the JSON answer. */
export async function postJson<T = unknown>(url: string, body: unknown, init: { signal?: AbortSignal } = {}): Promise<ApiAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (error) {
    throw new ApiError(0, `The server could not be reached: ${(error as Error)?.message ?? error}`);
  }
  let data: unknown = undefined;
  const text = await response.text().catch(() => '');
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const payload = (data ?? {}) as { message?: unknown; errors?: unknown };
    const message = typeof payload.message === 'string' ? payload.message : `The server answered ${response.status}`;
    throw new ApiError(response.status, message, toFieldErrors(payload.errors));
  }
  if (data === undefined) {
    throw new ApiError(response.status, 'The server answered without JSON');
  }
  return { status: response.status, data: data as T };
}

function toFieldErrors(value: unknown): FieldErrors {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: FieldErrors = {};
  for (const [key, reason] of Object.entries(value)) {
    if (typeof reason === 'string') out[key] = reason;
  }
  return out;
}
