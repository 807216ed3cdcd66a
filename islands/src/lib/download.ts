// Conference materials: download through fetch so a failure can be reported (spec section 7:
// read as binary, saved under the material's file name; section 8: the alert text).

/** The alert shown when a download fails (spec section 8). */
export const DOWNLOAD_FAILED = 'Failed to download file. Please try again.';

export interface DownloadEnv {
  fetch: typeof fetch;
  createObjectURL: (blob: Blob) => string;
  revokeObjectURL: (url: string) => void;
  document: Document;
}

const browserEnv = (): DownloadEnv => ({
  fetch: (...args) => globalThis.fetch(...args),
  createObjectURL: (blob) => URL.createObjectURL(blob),
  revokeObjectURL: (url) => URL.revokeObjectURL(url),
  document,
});

/**
 * Fetches `href` and saves the body as `fileName` (an object URL clicked through a temporary
 * `<a download>`). Rejects on a network error or a non-2xx answer; nothing is saved then.
 */
export async function downloadFile(href: string, fileName: string, env: DownloadEnv = browserEnv()): Promise<void> {
  const response = await env.fetch(href);
  if (!response.ok) throw new Error(`${href} answered ${response.status}`);
  const blob = await response.blob();
  const url = env.createObjectURL(blob);
  const a = env.document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  env.document.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The click has handed the URL to the download; free it once this task is done.
    setTimeout(() => env.revokeObjectURL(url), 0);
  }
}

/** Whether a click should be left to the browser (new tab, save-as, other buttons). */
export function isModifiedClick(e: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}
