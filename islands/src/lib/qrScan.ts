// Reading a QR code from a <video> of the device camera (issue 33 item 3): the browser's own
// BarcodeDetector where it has one that reads QR codes, otherwise jsQR, a plain-JavaScript
// decoder fetched only now (a dynamic import: its chunk loads on the check-in page, once the
// camera starts, and on no other page).

/** Reads the QR code in the current frame of `video`; null when there is none. */
export type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options?: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

/** The browser's BarcodeDetector when it reads QR codes, else null. */
export async function nativeDetector(): Promise<BarcodeDetectorLike | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = (await Detector.getSupportedFormats?.()) ?? ['qr_code'];
    if (!formats.includes('qr_code')) return null;
    return new Detector({ formats: ['qr_code'] });
  } catch {
    return null;
  }
}

/** A frame reader: BarcodeDetector's, else jsQR's over a canvas copy of the frame. */
export async function frameReader(): Promise<FrameReader> {
  const native = await nativeDetector();
  if (native) {
    return async (video) => {
      const found = await native.detect(video);
      return found.find((b) => b.rawValue)?.rawValue ?? null;
    };
  }
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('This browser cannot read camera frames.');
  return async (video) => {
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (!width || !height) return null;
    canvas.width = width;
    canvas.height = height;
    context.drawImage(video, 0, 0, width, height);
    const image = context.getImageData(0, 0, width, height);
    return jsQR(image.data, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
  };
}
