// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEffect, useState } from 'react';
import userEvent from '@testing-library/user-event';
import { mountIsland, startIslands, type IslandLoaders } from './runtime';

const FALLBACK = '<p class="hello">server fallback</p>';

function Hello({ who }: { who: string }) {
  return <p className="hello">hello {who}</p>;
}
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Register Now
      </button>
      {open && <p role="dialog">modal</p>}
    </>
  );
}
function Broken(): never {
  throw new Error('boom');
}
function BreaksLater() {
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    setTimeout(() => setBroken(true), 10);
  }, []);
  if (broken) throw new Error('later boom');
  return <p className="hello">fine for now</p>;
}

const loaders: IslandLoaders = {
  './islands/Hello.tsx': async () => ({ default: Hello }),
  './islands/Broken.tsx': async () => ({ default: Broken }),
  './islands/Opener.tsx': async () => ({ default: Opener }),
  './islands/BreaksLater.tsx': async () => ({ default: BreaksLater }),
  './islands/Missing.tsx': () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  './islands/NoDefault.tsx': async () => ({}),
};

function island(attrs: Record<string, string>): HTMLElement {
  const el = document.createElement('div');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.innerHTML = FALLBACK;
  document.body.append(el);
  return el;
}

let errors: unknown[][];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function errorEvents(el: HTMLElement): CustomEvent[] {
  const seen: CustomEvent[] = [];
  el.addEventListener('island:error', (e) => seen.push(e as CustomEvent));
  return seen;
}

describe('mountIsland', () => {
  it('mounts the component with its props over the fallback and marks it ready', async () => {
    const el = island({ 'data-island': 'Hello', 'data-props': '{"who":"world"}' });
    expect(await mountIsland(el, loaders)).toBe(true);
    expect(el.innerHTML).toBe('<p class="hello">hello world</p>');
    expect(el.hasAttribute('data-island-ready')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('mounts each element once', async () => {
    const el = island({ 'data-island': 'Hello', 'data-props': '{"who":"a"}' });
    const load = vi.fn(loaders['./islands/Hello.tsx']);
    const [a, b] = await Promise.all([
      mountIsland(el, { './islands/Hello.tsx': load }),
      mountIsland(el, { './islands/Hello.tsx': load }),
    ]);
    expect(a).toBe(true);
    expect(b).toBe(false); // second call saw it not yet ready, and did nothing
    expect(load).toHaveBeenCalledOnce();
    expect(el.querySelectorAll('p')).toHaveLength(1);
  });

  const failures: Array<[string, Record<string, string>, RegExp]> = [
    ['an unknown island name', { 'data-island': 'Nope' }, /no component file src\/islands\/Nope\.tsx/],
    ['an invalid island name', { 'data-island': '../x' }, /not a valid island name/],
    ['bad JSON props', { 'data-island': 'Hello', 'data-props': '{who:1}' }, /data-props is not valid JSON/],
    ['an unknown trigger', { 'data-island': 'Hello', 'data-hydrate': 'soon' }, /data-hydrate="soon"/],
    ['a chunk that fails to load', { 'data-island': 'Missing' }, /could not load its chunk/],
    ['a module without a default export', { 'data-island': 'NoDefault' }, /no default export/],
    ['a component that throws while rendering', { 'data-island': 'Broken' }, /render error: boom/],
  ];

  it.each(failures)('keeps the fallback and reports %s', async (_what, attrs, message) => {
    const el = island(attrs);
    const events = errorEvents(el);
    expect(await mountIsland(el, loaders)).toBe(false);
    expect(el.innerHTML).toBe(FALLBACK);
    expect(el.hasAttribute('data-island-ready')).toBe(false);
    expect(events).toHaveLength(1);
    expect(events[0].bubbles).toBe(true);
    expect(events[0].detail.name).toBe(attrs['data-island']);
    expect(String(events[0].detail.error)).toMatch(message);
    expect(errors).toHaveLength(1);
    expect(String(errors[0][0])).toMatch(/^\[islands\] island ".*" failed; keeping the server fallback\./);
    expect(String(errors[0][0])).toMatch(message);
  });

  it('puts the fallback back when a mounted island crashes later', async () => {
    const el = island({ 'data-island': 'BreaksLater' });
    const events = errorEvents(el);
    expect(await mountIsland(el, loaders)).toBe(true);
    expect(el.textContent).toBe('fine for now');
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(String(events[0].detail.error)).toMatch(/render error: later boom/);
    expect(el.innerHTML).toBe(FALLBACK);
    expect(el.hasAttribute('data-island-ready')).toBe(false);
  });
});

describe('data-hydrate="intent"', () => {
  const LINK = '<a href="#fallback-target">Register Now</a>';
  function intentIsland(name: string, load = vi.fn(loaders[`./islands/${name}.tsx`])) {
    const el = document.createElement('div');
    el.setAttribute('data-island', name);
    el.setAttribute('data-hydrate', 'intent');
    el.innerHTML = LINK;
    document.body.append(el);
    return { el, load, mounting: mountIsland(el, { [`./islands/${name}.tsx`]: load }) };
  }

  it('loads nothing until the visitor points at, focuses or touches the island', async () => {
    // Fake timers, run out: whatever a `load`, `idle` or `visible` trigger would wait for (a
    // paint timeout, an idle callback, a fallback delay) has come and gone, and still nothing
    // loads. A real 20 ms wait would pass on a runtime that loads a little later.
    vi.useFakeTimers();
    let started: ReturnType<typeof intentIsland>;
    try {
      started = intentIsland('Opener');
      await vi.runAllTimersAsync();
      expect(started.load).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
    const { el, load, mounting } = started;
    await userEvent.hover(el.querySelector('a')!);
    expect(await mounting).toBe(true);
    expect(load).toHaveBeenCalledOnce();
    expect(el.querySelector('button')?.textContent).toBe('Register Now');
  });

  it('keyboard focus is intent too, and focus moves to what replaces the focused link', async () => {
    const { el, load, mounting } = intentIsland('Opener');
    await userEvent.tab();
    expect(await mounting).toBe(true);
    expect(load).toHaveBeenCalledOnce();
    expect(document.activeElement).toBe(el.querySelector('button'));
  });

  it('a visitor typing in the server form while the island loads keeps their text, focus and caret', async () => {
    // Like the paper form: the island reads what the server form holds, renders the same ids.
    function NameForm() {
      const [name, setName] = useState(() => (document.getElementById('author') as HTMLInputElement).value);
      return (
        <form>
          <label htmlFor="author">Author name</label>
          <input id="author" value={name} onChange={(e) => setName(e.target.value)} />
        </form>
      );
    }
    let arrive!: (mod: { default: typeof NameForm }) => void;
    const load = vi.fn(() => new Promise<{ default: typeof NameForm }>((resolve) => (arrive = resolve)));
    const el = document.createElement('div');
    el.setAttribute('data-island', 'NameForm');
    el.setAttribute('data-hydrate', 'intent');
    el.innerHTML = '<form><label for="author">Author name</label><input id="author" name="authorName"></form>';
    document.body.append(el);
    const mounting = mountIsland(el, { './islands/NameForm.tsx': load });

    const server = el.querySelector('input')!;
    await userEvent.click(server);
    await userEvent.keyboard('Ana');
    expect(load).toHaveBeenCalledOnce();
    arrive({ default: NameForm });
    expect(await mounting).toBe(true);

    const island = el.querySelector('input')!;
    expect(island).not.toBe(server);
    expect(document.activeElement).toBe(island);
    expect(island.selectionStart).toBe(3);
    await userEvent.keyboard(' Cruz');
    expect(island.value).toBe('Ana Cruz');
  });

  it('a click on the fallback link before mounting stays on the page and is replayed on the island', async () => {
    const { el, mounting } = intentIsland('Opener');
    const followed = vi.fn((e: Event) => e.defaultPrevented || e.preventDefault());
    document.addEventListener('click', followed);
    const link = el.querySelector('a')!;
    // A click without any hover first (a touch screen, or a script).
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(followed.mock.calls[0][0].defaultPrevented).toBe(true);
    expect(await mounting).toBe(true);
    await vi.waitFor(() => expect(el.querySelector('[role="dialog"]')?.textContent).toBe('modal'));
    document.removeEventListener('click', followed);
  });

  it('a press that started the loading ends on the fallback: the island waits, then the click opens it', async () => {
    // A tap: touchstart (intent) starts the loading; if the island replaced the link before
    // the finger lifts, the click would go to neither and be lost.
    let arrive!: (mod: { default: typeof Opener }) => void;
    const load = vi.fn(() => new Promise<{ default: typeof Opener }>((resolve) => (arrive = resolve)));
    const { el, mounting } = intentIsland('Opener', load);
    const link = el.querySelector('a')!;
    const press = (type: string) => link.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
    press('touchstart');
    press('pointerdown');
    await vi.waitFor(() => expect(load).toHaveBeenCalledOnce());
    arrive({ default: Opener });
    // The chunk is in and the runtime holds the mount back (a state, not a guessed delay).
    await vi.waitFor(() => expect(el.hasAttribute('data-island-held')).toBe(true));
    expect(el.querySelector('button'), 'still the fallback while pressed').toBeNull();
    expect(el.querySelector('a')).toBe(link);
    press('pointerup');
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(await mounting).toBe(true);
    expect(el.hasAttribute('data-island-held')).toBe(false);
    await vi.waitFor(() => expect(el.querySelector('[role="dialog"]')?.textContent).toBe('modal'));
  });

  it('when the island cannot load, the held click follows the fallback link after all', async () => {
    const { el, mounting } = intentIsland('Missing');
    const clicks: boolean[] = [];
    document.addEventListener('click', (e) => {
      clicks.push(e.defaultPrevented);
      e.preventDefault(); // keep the test page where it is
    });
    el.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(await mounting).toBe(false);
    // First the held click, then the replayed one that the runtime no longer stops.
    expect(clicks).toEqual([true, false]);
    expect(el.innerHTML).toBe(LINK);
  });
});

describe('startIslands', () => {
  it('mounts every island under the root, failures apart', async () => {
    const a = island({ 'data-island': 'Hello', 'data-props': '{"who":"a"}' });
    const b = island({ 'data-island': 'Nope' });
    const c = island({ 'data-island': 'Hello', 'data-props': '{"who":"c"}', 'data-hydrate': 'idle' });
    expect(await startIslands(document, loaders)).toEqual([true, false, true]);
    expect(a.textContent).toBe('hello a');
    expect(b.innerHTML).toBe(FALLBACK);
    expect(c.textContent).toBe('hello c');
  });
});
