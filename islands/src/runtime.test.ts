import { describe, expect, it, vi } from 'vitest';
import {
  FIRST_PAINT_TIMEOUT_MS,
  IDLE_FALLBACK_DELAY_MS,
  IDLE_TIMEOUT_MS,
  IslandError,
  VISIBLE_ROOT_MARGIN,
  islandModuleKey,
  parseProps,
  parseTrigger,
  waitForTrigger,
  type TriggerEnv,
} from './runtime';

describe('parseTrigger', () => {
  it('defaults to load when data-hydrate is missing or empty', () => {
    expect(parseTrigger(null)).toBe('load');
    expect(parseTrigger(undefined)).toBe('load');
    expect(parseTrigger('')).toBe('load');
    expect(parseTrigger('  ')).toBe('load');
  });

  it('accepts load, idle, visible and intent', () => {
    expect(parseTrigger('load')).toBe('load');
    expect(parseTrigger('idle')).toBe('idle');
    expect(parseTrigger(' visible ')).toBe('visible');
    expect(parseTrigger('intent')).toBe('intent');
  });

  it('rejects anything else with a clear message', () => {
    expect(() => parseTrigger('visable')).toThrow(IslandError);
    expect(() => parseTrigger('visable')).toThrow(/data-hydrate="visable"/);
    expect(() => parseTrigger('Load')).toThrow(IslandError);
  });
});

describe('parseProps', () => {
  it('parses a JSON object', () => {
    expect(parseProps('{"target":"2025-03-21T00:00:00+08:00"}')).toEqual({ target: '2025-03-21T00:00:00+08:00' });
    expect(parseProps('{"a":{"b":[1,2]},"c":null,"d":"<&>\\""}')).toEqual({ a: { b: [1, 2] }, c: null, d: '<&>"' });
  });

  it('treats a missing or empty attribute as no props', () => {
    expect(parseProps(null)).toEqual({});
    expect(parseProps(undefined)).toEqual({});
    expect(parseProps('')).toEqual({});
  });

  it('rejects invalid JSON', () => {
    expect(() => parseProps('{target: 1}')).toThrow(IslandError);
    expect(() => parseProps('{target: 1}')).toThrow(/data-props is not valid JSON/);
    expect(() => parseProps('{&quot;a&quot;:1}')).toThrow(IslandError);
  });

  it('rejects JSON that is not an object', () => {
    for (const raw of ['[]', '[1]', '1', '"x"', 'null', 'true']) {
      expect(() => parseProps(raw)).toThrow(/must be a JSON object/);
    }
  });
});

describe('islandModuleKey', () => {
  it('maps a name to its file under ./islands', () => {
    expect(islandModuleKey('Countdown')).toBe('./islands/Countdown.tsx');
    expect(islandModuleKey('NoticePopup2')).toBe('./islands/NoticePopup2.tsx');
  });

  it('rejects names that are not component names', () => {
    for (const bad of [null, '', 'countdown', '../main', 'Count-down', 'Countdown.tsx', 'A/B']) {
      expect(() => islandModuleKey(bad)).toThrow(IslandError);
    }
  });
});

describe('waitForTrigger', () => {
  const el = {} as Element;
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };

  it('load resolves at once where requestAnimationFrame does not exist', async () => {
    const env: TriggerEnv = { setTimeout: vi.fn() };
    expect(await settled(waitForTrigger('load', el, env))).toBe(true);
  });

  it('load waits for the reported first contentful paint, or the timeout', async () => {
    let report: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
    const observe = vi.fn();
    class FakePO {
      static supportedEntryTypes = ['paint'];
      constructor(cb: typeof report) {
        report = cb;
      }
      observe = observe;
      disconnect = vi.fn();
    }
    const tasks: Array<[() => void, number]> = [];
    const setTimeout = vi.fn((c: () => void, ms: number) => tasks.push([c, ms]));
    const env = { setTimeout, PerformanceObserver: FakePO } as unknown as TriggerEnv;
    const p = waitForTrigger('load', el, env);
    expect(observe).toHaveBeenCalledWith({ type: 'paint', buffered: true });
    report!({ getEntriesByName: (n) => (n === 'first-paint' ? [{}] : []) });
    expect(await settled(p)).toBe(false);
    report!({ getEntriesByName: (n) => (n === 'first-contentful-paint' ? [{}] : []) });
    expect(await settled(p)).toBe(false);
    tasks.find(([, ms]) => ms === 0)![0]();
    expect(await settled(p)).toBe(true);

    // A page that never paints (a hidden tab) still gets its islands.
    const late = waitForTrigger('load', el, env);
    expect(await settled(late)).toBe(false);
    const timeout = tasks.filter(([, ms]) => ms === FIRST_PAINT_TIMEOUT_MS).pop()!;
    timeout[0]();
    expect(await settled(late)).toBe(true);
  });

  it('load waits for the first paint: the task queued from the next animation frame', async () => {
    let frame: (() => void) | undefined;
    let task: (() => void) | undefined;
    const requestAnimationFrame = vi.fn((c: () => void) => (frame = c));
    const setTimeout = vi.fn((c: () => void) => (task = c));
    const p = waitForTrigger('load', el, { requestAnimationFrame, setTimeout });
    expect(await settled(p)).toBe(false);
    frame!();
    expect(setTimeout).toHaveBeenLastCalledWith(expect.any(Function), 0);
    expect(await settled(p)).toBe(false);
    task!();
    expect(await settled(p)).toBe(true);
  });

  it('idle waits for requestIdleCallback, with a timeout', async () => {
    let cb: (() => void) | undefined;
    const requestIdleCallback = vi.fn((c: () => void) => (cb = c));
    const env: TriggerEnv = { requestIdleCallback, setTimeout: vi.fn() };
    const p = waitForTrigger('idle', el, env);
    // No paint to wait for in this environment: asked for in a microtask.
    expect(await settled(p)).toBe(false);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: IDLE_TIMEOUT_MS });
    expect(IDLE_TIMEOUT_MS).toBe(2000);
    expect(await settled(p)).toBe(false);
    cb!();
    expect(await settled(p)).toBe(true);
    expect(env.setTimeout).not.toHaveBeenCalled();
  });

  it('idle falls back to setTimeout without requestIdleCallback', async () => {
    let cb: (() => void) | undefined;
    const setTimeout = vi.fn((c: () => void) => (cb = c));
    const p = waitForTrigger('idle', el, { setTimeout });
    expect(await settled(p)).toBe(false);
    expect(setTimeout).toHaveBeenCalledWith(expect.any(Function), IDLE_FALLBACK_DELAY_MS);
    expect(await settled(p)).toBe(false);
    cb!();
    expect(await settled(p)).toBe(true);
  });

  it('visible waits until the element intersects (200px margin), then disconnects', async () => {
    const observed: Element[] = [];
    const disconnect = vi.fn();
    let callback: ((entries: Array<{ isIntersecting: boolean }>, o: { disconnect(): void }) => void) | undefined;
    let options: { rootMargin?: string } | undefined;
    class FakeIO {
      constructor(cb: typeof callback, opts?: { rootMargin?: string }) {
        callback = cb;
        options = opts;
      }
      observe(e: Element) {
        observed.push(e);
      }
      disconnect = disconnect;
    }
    const env: TriggerEnv = { setTimeout: vi.fn(), IntersectionObserver: FakeIO as unknown as TriggerEnv['IntersectionObserver'] };
    const p = waitForTrigger('visible', el, env);
    expect(observed).toEqual([el]);
    expect(options).toEqual({ rootMargin: VISIBLE_ROOT_MARGIN });
    expect(VISIBLE_ROOT_MARGIN).toBe('200px');
    const observer = { disconnect };
    callback!([{ isIntersecting: false }], observer);
    expect(await settled(p)).toBe(false);
    expect(disconnect).not.toHaveBeenCalled();
    callback!([{ isIntersecting: true }], observer);
    expect(await settled(p)).toBe(true);
    expect(disconnect).toHaveBeenCalledOnce();
  });

  it('idle and visible wait for the first paint too: before it, no idle callback and no load', async () => {
    // The browser may be idle, and an element in view, between the load event and the first
    // frame; a chunk fetched then counts into the page's LCP (issue 30).
    const frames: Array<() => void> = [];
    const tasks: Array<[() => void, number]> = [];
    const requestAnimationFrame = vi.fn((c: () => void) => frames.push(c));
    const setTimeout = vi.fn((c: () => void, ms: number) => tasks.push([c, ms]));
    const requestIdleCallback = vi.fn((c: () => void) => c());
    class FakeIO {
      constructor(private cb: (entries: Array<{ isIntersecting: boolean }>, o: { disconnect(): void }) => void) {}
      observe() {
        this.cb([{ isIntersecting: true }], { disconnect: vi.fn() });
      }
      disconnect = vi.fn();
    }
    const env = { requestAnimationFrame, setTimeout, requestIdleCallback, IntersectionObserver: FakeIO } as unknown as TriggerEnv;
    const idle = waitForTrigger('idle', el, env);
    const visible = waitForTrigger('visible', el, env);
    expect(await settled(idle)).toBe(false);
    expect(await settled(visible)).toBe(false);
    expect(requestIdleCallback).not.toHaveBeenCalled();
    // The frame comes; the tasks queued from it (one per island) run, not the paint timeouts.
    expect(frames).toHaveLength(2);
    for (const frame of frames) frame();
    expect(await settled(idle)).toBe(false);
    for (const [task] of tasks.filter(([, ms]) => ms === 0)) task();
    expect(await settled(idle)).toBe(true);
    expect(await settled(visible)).toBe(true);
    expect(requestIdleCallback).toHaveBeenCalledOnce();
  });

  it('visible resolves at once without IntersectionObserver', async () => {
    expect(await settled(waitForTrigger('visible', el, { setTimeout: vi.fn() }))).toBe(true);
  });
});
