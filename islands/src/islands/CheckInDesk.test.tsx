// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CheckInDesk, { NO_CAMERA, SESSION_ENDED, type Shown } from './CheckInDesk';
import { descriptionOf, serverRendered, stubFetch, templatePart } from '../test-utils';

// The server's fallback: the status region and the typed-code form inside the island element.
const FALLBACK = templatePart('organiser/check_in.html', /<div id="check-in-result"[\s\S]*?<\/form>/)
  .replace(/\{%[\s\S]*?%\}/g, '')
  .replace(/\{\{[\s\S]*?\}\}/g, '');

const VALID: Shown = { result: 'valid', title: 'Valid: welcome', lines: ['Ada Lanternwright', 'Harbour Guest · In person, at the venue'] };
const ALREADY: Shown = {
  result: 'already',
  title: 'Already checked in today',
  lines: ['Checked in at 09:00, Friday 21 March 2025 by door@fixcon.example.', 'Ada Lanternwright'],
};

const input = () => screen.getByLabelText('Ticket code or address') as HTMLInputElement;
const status = () => screen.getByRole('status');

function mount(props: Partial<Parameters<typeof CheckInDesk>[0]> = {}) {
  const user = userEvent.setup();
  const container = serverRendered(FALLBACK);
  render(<CheckInDesk action="/organiser/check-in" {...props} />, { container });
  return { user, container };
}

/** A camera: getUserMedia with a stream whose track records being stopped. */
function stubCamera() {
  const stop = vi.fn();
  const stream = { getTracks: () => [{ stop }] } as unknown as MediaStream;
  const getUserMedia = vi.fn(async () => stream);
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async () => undefined);
  // happy-dom's <video> takes only its own MediaStream class.
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'set').mockImplementation(() => undefined);
  return { getUserMedia, stop };
}

/** A BarcodeDetector that reads `values` from successive frames (null: nothing seen). */
function stubDetector(values: (string | null)[]) {
  const detect = vi.fn(async () => {
    const value = values.length > 1 ? values.shift() : values[0];
    return value ? [{ rawValue: value }] : [];
  });
  class Detector {
    static getSupportedFormats = async () => ['qr_code', 'ean_13'];
    detect = detect;
  }
  vi.stubGlobal('BarcodeDetector', Detector);
  return detect;
}

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CheckInDesk', () => {
  it('keeps the fallback form and the answer the server showed', () => {
    mount({ shown: VALID });
    expect(input().name).toBe('code');
    expect(status().getAttribute('aria-live')).toBe('polite');
    expect(status().textContent).toContain('Valid: welcome');
    expect(status().textContent).toContain('Ada Lanternwright');
    expect(screen.getByRole('button', { name: 'Scan a ticket' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Check in' })).toBeTruthy();
  });

  it('sends a typed code as JSON and announces the answer, then empties the field', async () => {
    const fetch = stubFetch(200, ALREADY);
    const { user } = mount();
    await user.type(input(), 'abcd efgh');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(status().textContent).toContain('Already checked in today'));
    expect(status().textContent).toContain('by door@fixcon.example');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/organiser/check-in');
    expect(JSON.parse(String(init?.body))).toEqual({ code: 'abcd efgh' });
    expect(input().value).toBe('');
    expect(document.activeElement).toBe(input());
  });

  it('shows a field error for an empty code without sending it', async () => {
    const fetch = stubFetch(200, VALID);
    const { user } = mount();
    await user.click(screen.getByRole('button', { name: 'Check in' }));
    expect(fetch).not.toHaveBeenCalled();
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(input())).toBe('Scan a ticket or type its code.');
  });

  it('says so when the session ended', async () => {
    stubFetch(401, { message: 'Your session ended. Please sign in again.' });
    const { user } = mount();
    await user.type(input(), 'X{Enter}');
    await waitFor(() => expect(status().textContent).toBe(SESSION_ENDED));
  });

  it('scans with BarcodeDetector: one press, one code sent, and the camera stops', async () => {
    const { getUserMedia, stop } = stubCamera();
    const detect = stubDetector([null, 'http://127.0.0.1:3000/check-in/ABC']);
    const fetch = stubFetch(200, VALID);
    const { user } = mount();
    await user.click(screen.getByRole('button', { name: 'Scan a ticket' }));
    await waitFor(() => expect(status().textContent).toContain('Valid: welcome'));
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    expect(detect.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({ code: 'http://127.0.0.1:3000/check-in/ABC' });
    expect(stop).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Scan a ticket' })).toBeTruthy();
  });

  it('clears the last answer as soon as a new scan starts', async () => {
    stubCamera();
    stubDetector([null]);
    stubFetch(200, VALID);
    const { user } = mount();
    await user.type(input(), 'ABC{Enter}');
    await waitFor(() => expect(status().textContent).toContain('Valid: welcome'));
    await user.click(screen.getByRole('button', { name: 'Scan a ticket' }));
    await waitFor(() => expect(status().textContent).toBe(''));
    await user.click(screen.getByRole('button', { name: 'Stop the camera' }));
  });

  it('falls back to the typed code when there is no camera', async () => {
    stubDetector([null]);
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: { getUserMedia: vi.fn(async () => Promise.reject(new Error('NotAllowedError'))) },
    });
    const { user } = mount();
    await user.click(screen.getByRole('button', { name: 'Scan a ticket' }));
    await waitFor(() => expect(status().textContent).toBe(NO_CAMERA));
    expect(input().disabled).toBe(false);
  });
});
