// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, useRef, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MODAL_OPEN_CLASS, Modal, focusableIn, wrapIndex } from './dialog';

describe('wrapIndex', () => {
  it('wraps Tab at the end and Shift+Tab at the start', () => {
    expect(wrapIndex(2, 3, false)).toBe(0);
    expect(wrapIndex(0, 3, true)).toBe(2);
    expect(wrapIndex(0, 3, false)).toBe(1);
  });
  it('enters from outside at the first or last element', () => {
    expect(wrapIndex(-1, 3, false)).toBe(0);
    expect(wrapIndex(-1, 3, true)).toBe(2);
  });
  it('has nothing to focus in an empty dialog', () => {
    expect(wrapIndex(-1, 0, false)).toBe(-1);
  });
});

describe('focusableIn', () => {
  it('lists what Tab reaches, skipping disabled, hidden and tabindex=-1 elements', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <a href="/x" id="a">link</a><a id="no-href">no href</a>
      <button id="b">ok</button><button disabled>off</button>
      <div hidden><button>hidden</button></div>
      <span tabindex="-1">programmatic</span><span tabindex="0" id="c">tabbable</span>
      <input type="hidden"><input id="d">`;
    expect(focusableIn(root).map((el) => el.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

function Harness({ onCloseSpy }: { onCloseSpy: () => void }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <div>
      <button id="opener" ref={opener} onClick={() => setOpen(true)}>
        Open
      </button>
      <button id="outside">Outside</button>
      <Modal
        open={open}
        onClose={() => {
          onCloseSpy();
          setOpen(false);
        }}
        labelledBy="t"
        className="test-dialog"
      >
        <h2 id="t">Title</h2>
        <button id="first">First</button>
        <button id="last" onClick={() => setOpen(false)}>
          Last
        </button>
      </Modal>
    </div>
  );
}

describe('Modal', () => {
  let root: Root;
  let host: HTMLElement;
  const onClose = vi.fn();
  const key = (k: string, shiftKey = false) =>
    act(() => {
      document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true, cancelable: true }));
    });
  const active = () => (document.activeElement as HTMLElement | null)?.id;

  beforeEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    act(() => root.render(<Harness onCloseSpy={onClose} />));
    onClose.mockClear();
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  const open = () => {
    const opener = document.getElementById('opener') as HTMLButtonElement;
    opener.focus();
    act(() => opener.click());
  };

  it('is a labelled modal dialog rendered into <body>, and focus moves into it', () => {
    open();
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-labelledby')).toBe('t');
    expect(host.contains(dialog)).toBe(false);
    expect(active()).toBe('first');
    expect(document.documentElement.classList.contains(MODAL_OPEN_CLASS)).toBe(true);
  });

  it('keeps Tab and Shift+Tab inside', () => {
    open();
    (document.getElementById('last') as HTMLElement).focus();
    key('Tab');
    expect(active()).toBe('first');
    key('Tab', true);
    expect(active()).toBe('last');
  });

  it('brings focus back when it lands outside', () => {
    open();
    act(() => (document.getElementById('outside') as HTMLElement).focus());
    expect(active()).toBe('first');
  });

  it('closes on Esc and returns focus to the opener', () => {
    open();
    key('Escape');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(active()).toBe('opener');
    expect(document.documentElement.classList.contains(MODAL_OPEN_CLASS)).toBe(false);
  });

  it('closes on a backdrop click', () => {
    open();
    act(() => (document.querySelector('.modal__backdrop') as HTMLElement).click());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(active()).toBe('opener');
  });

  it('returns focus however it closes', () => {
    open();
    act(() => (document.getElementById('last') as HTMLElement).click());
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(active()).toBe('opener');
  });
});
