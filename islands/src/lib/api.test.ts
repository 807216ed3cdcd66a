import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, postJson } from './api';

function answer(status: number, body: string, contentType = 'application/json') {
  return vi.fn(async () => new Response(body, { status, headers: { 'Content-Type': contentType } }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('postJson', () => {
  it('sends JSON and resolves with the status and parsed answer of a 2xx', async () => {
    const fetch = answer(201, '{"id":"abc"}');
    vi.stubGlobal('fetch', fetch);
    await expect(postJson('/api/contact', { name: 'Ana' })).resolves.toEqual({ status: 201, data: { id: 'abc' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ name: 'Ana' });
  });

  it('rejects a 422 with the server message and field errors', async () => {
    vi.stubGlobal('fetch', answer(422, '{"message":"Name is required","errors":{"name":"Name is required","x":3}}'));
    const error = await postJson('/api/contact', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'Name is required', errors: { name: 'Name is required' } });
  });

  it('rejects a 5xx that is not JSON with its status', async () => {
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>', 'text/html'));
    await expect(postJson('/api/contact', {})).rejects.toMatchObject({ status: 502, message: 'The server answered 502', errors: {} });
  });

  it('rejects with status 0 when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(postJson('/api/contact', {})).rejects.toMatchObject({ status: 0 });
  });

  it('rejects a 2xx without JSON: the answer cannot be trusted', async () => {
    vi.stubGlobal('fetch', answer(200, 'OK', 'text/plain'));
    await expect(postJson('/api/newsletter', {})).rejects.toMatchObject({ status: 200 });
  });
});
