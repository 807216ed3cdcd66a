// The notice popup's timing and its dismissed flag (spec section 2: Notice popup; section 9:
// delay 1.5 s). The flag lives in localStorage, which can be missing or throw (private modes,
// blocked storage): then the popup simply shows again next time.

/** How long after load the popup appears, in milliseconds. */
export const NOTICE_DELAY_MS = 1500;

/** localStorage key of the dismissed flag (named in the cookie policy's "Our own storage"). */
export const NOTICE_DISMISSED_KEY = 'noticeDismissed';

type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>;

function storageOrNull(): FlagStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Whether the visitor has closed the popup before. */
export function isNoticeDismissed(storage: FlagStorage | null = storageOrNull()): boolean {
  try {
    return storage?.getItem(NOTICE_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Remembers that the visitor closed the popup. Returns false when it could not be stored. */
export function dismissNotice(storage: FlagStorage | null = storageOrNull()): boolean {
  try {
    if (!storage) return false;
    storage.setItem(NOTICE_DISMISSED_KEY, 'true');
    return true;
  } catch {
    return false;
  }
}
