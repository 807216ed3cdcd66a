// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_FAILED, downloadFile, isModifiedClick, type DownloadEnv } from './download';

let clicked: Array<{ href: string; download: string; attached: boolean }>;
let env: DownloadEnv;

beforeEach(() => {
  vi.useFakeTimers();
  clicked = [];
  env = {
    fetch: vi.fn(async () => new Response(new Uint8Array([37, 80, 68, 70]), { status: 200 })) as unknown as typeof fetch,
    createObjectURL: vi.fn(() => 'blob:test/1'),
    revokeObjectURL: vi.fn(),
    document,
  };
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href') ?? '', download: this.download, attached: this.isConnected });
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('material download', () => {
  it('has the spec failure text', () => {
    expect(DOWNLOAD_FAILED).toBe('Failed to download file. Please try again.');
  });

  it('fetches the file and saves it under the material file name', async () => {
    await downloadFile('/api/files/download_buttons/b1/brochure.pdf', 'brochure.pdf', env);
    expect(env.fetch).toHaveBeenCalledWith('/api/files/download_buttons/b1/brochure.pdf');
    const blob = (env.createObjectURL as ReturnType<typeof vi.fn>).mock.calls[0][0] as Blob;
    expect(blob.size).toBe(4);
    expect(clicked).toEqual([{ href: 'blob:test/1', download: 'brochure.pdf', attached: true }]);
    expect(document.querySelector('a[download]')).toBeNull(); // the temporary link is gone
    expect(env.revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(env.revokeObjectURL).toHaveBeenCalledWith('blob:test/1');
  });

  it('rejects and saves nothing when the server answers an error', async () => {
    env.fetch = vi.fn(async () => new Response('Not found', { status: 404 })) as unknown as typeof fetch;
    await expect(downloadFile('/api/files/x/y/z.pdf', 'z.pdf', env)).rejects.toThrow(/404/);
    expect(clicked).toEqual([]);
    expect(env.createObjectURL).not.toHaveBeenCalled();
  });

  it('rejects when the network fails', async () => {
    env.fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await expect(downloadFile('/api/files/x/y/z.pdf', 'z.pdf', env)).rejects.toThrow('Failed to fetch');
    expect(clicked).toEqual([]);
  });
});

describe('modified clicks stay with the browser', () => {
  const base = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
  it('handles a plain left click itself', () => {
    expect(isModifiedClick(base)).toBe(false);
  });
  it('leaves ctrl/cmd/shift/alt and other buttons alone', () => {
    expect(isModifiedClick({ ...base, ctrlKey: true })).toBe(true);
    expect(isModifiedClick({ ...base, metaKey: true })).toBe(true);
    expect(isModifiedClick({ ...base, shiftKey: true })).toBe(true);
    expect(isModifiedClick({ ...base, altKey: true })).toBe(true);
    expect(isModifiedClick({ ...base, button: 1 })).toBe(true);
  });
});
