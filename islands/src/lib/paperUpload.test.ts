import { describe, expect, it } from 'vitest';
import { SUBMISSION_URL, percent, readAnswer, uploadPaper, type XhrLike } from './paperUpload';

/** A stand-in XMLHttpRequest the test drives by hand. */
class FakeXhr implements XhrLike {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: XhrLike['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

describe('percent', () => {
  it('gives whole percents, or nothing when the size is unknown', () => {
    expect(percent(0, 200, true)).toBe(0);
    expect(percent(101, 200, true)).toBe(50);
    expect(percent(200, 200, true)).toBe(100);
    expect(percent(10, 0, true)).toBeNull();
    expect(percent(10, 200, false)).toBeNull();
  });
});

describe('readAnswer', () => {
  it('reads a 201 and refusals with their message and field errors', () => {
    expect(readAnswer(201, '{"id":7,"reference":"P-2025-ABC234"}')).toEqual({ ok: true, id: 7, reference: 'P-2025-ABC234' });
    expect(readAnswer(422, '{"message":"Please select a paper type","errors":{"paperType":"Please select a paper type","x":1}}')).toEqual({
      ok: false,
      status: 422,
      message: 'Please select a paper type',
      errors: { paperType: 'Please select a paper type' },
    });
    expect(readAnswer(502, '<html>Bad gateway</html>')).toEqual({ ok: false, status: 502, message: null, errors: {} });
    expect(readAnswer(201, 'not json').ok).toBe(false);
  });
});

describe('uploadPaper', () => {
  it('posts the form data, reports progress and resolves with the answer', async () => {
    const xhr = new FakeXhr();
    const seen: number[] = [];
    const data = new FormData();
    data.append('paperType', 'Abstract');
    const done = uploadPaper(data, (p) => seen.push(p), () => xhr);
    expect([xhr.method, xhr.url]).toEqual(['POST', SUBMISSION_URL]);
    expect(xhr.headers.Accept).toBe('application/json');
    expect(xhr.body).toBe(data);
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 25, total: 100 });
    xhr.upload.onprogress!({ lengthComputable: false, loaded: 50, total: 0 });
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 100, total: 100 });
    xhr.answer(201, { id: 1, reference: 'P-2025-ABC234' });
    await expect(done).resolves.toEqual({ ok: true, id: 1, reference: 'P-2025-ABC234' });
    expect(seen).toEqual([25, 100]);
  });

  it('resolves with status 0 when no answer comes', async () => {
    const xhr = new FakeXhr();
    const done = uploadPaper(new FormData(), () => {}, () => xhr);
    xhr.onerror!();
    await expect(done).resolves.toEqual({ ok: false, status: 0, message: null, errors: {} });
  });
});
