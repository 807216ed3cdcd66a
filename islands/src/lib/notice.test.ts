import { describe, expect, it } from 'vitest';
import { NOTICE_DELAY_MS, NOTICE_DISMISSED_KEY, dismissNotice, isNoticeDismissed } from './notice';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    clear: () => m.clear(),
    key: (i: number) => Array.from(m.keys())[i] ?? null,
    get length() {
      return m.size;
    },
  };
}

const throwing = {
  getItem(): string | null {
    throw new DOMException('blocked', 'SecurityError');
  },
  setItem(): void {
    throw new DOMException('quota', 'QuotaExceededError');
  },
};

describe('notice dismissed flag', () => {
  it('appears 1.5 s after load (spec section 9)', () => {
    expect(NOTICE_DELAY_MS).toBe(1500);
  });

  it('is not set at first, and set after dismissing', () => {
    const storage = memory();
    expect(isNoticeDismissed(storage)).toBe(false);
    expect(dismissNotice(storage)).toBe(true);
    expect(storage.getItem(NOTICE_DISMISSED_KEY)).toBe('true');
    expect(isNoticeDismissed(storage)).toBe(true);
  });

  it('treats other values as not dismissed', () => {
    const storage = memory();
    storage.setItem(NOTICE_DISMISSED_KEY, 'false');
    expect(isNoticeDismissed(storage)).toBe(false);
  });

  it('survives storage that throws or is missing: the popup just shows again', () => {
    expect(isNoticeDismissed(throwing)).toBe(false);
    expect(dismissNotice(throwing)).toBe(false);
    expect(isNoticeDismissed(null)).toBe(false);
    expect(dismissNotice(null)).toBe(false);
  });
});
