// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

const jsQR = vi.fn();
vi.mock('jsqr', () => ({ default: jsQR }));

import { frameReader, nativeDetector } from './qrScan';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  jsQR.mockReset();
});

describe('frameReader', () => {
  it('uses BarcodeDetector only when it reads QR codes', async () => {
    class EanOnly {
      static getSupportedFormats = async () => ['ean_13'];
      detect = vi.fn();
    }
    vi.stubGlobal('BarcodeDetector', EanOnly);
    expect(await nativeDetector()).toBeNull();
  });

  it('falls back to jsQR over a canvas copy of the frame', async () => {
    const pixels = new Uint8ClampedArray(4 * 6);
    const drawImage = vi.fn();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage,
      getImageData: () => ({ data: pixels }),
    } as unknown as CanvasRenderingContext2D);
    jsQR.mockReturnValueOnce(null).mockReturnValueOnce({ data: 'http://127.0.0.1:3000/check-in/ABC' });
    const read = await frameReader();
    const video = { videoWidth: 3, videoHeight: 2 } as HTMLVideoElement;
    expect(await read(video)).toBeNull();
    expect(await read(video)).toBe('http://127.0.0.1:3000/check-in/ABC');
    expect(jsQR).toHaveBeenCalledWith(pixels, 3, 2, { inversionAttempts: 'dontInvert' });
    expect(drawImage).toHaveBeenCalledWith(video, 0, 0, 3, 2);
    // A video without a frame yet is not read.
    expect(await read({ videoWidth: 0, videoHeight: 0 } as HTMLVideoElement)).toBeNull();
    expect(jsQR).toHaveBeenCalledTimes(2);
  });
});
