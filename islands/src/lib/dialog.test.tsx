// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRef, useState } from 'react';
import { act, cleanup, render, screen, within, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
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
  const onClose = vi.fn();
  let user: UserEvent;
  let view: RenderResult;
  const button = (name: string) => screen.getByRole('button', { name });
  const dialog = () => screen.getByRole('dialog');

  beforeEach(() => {
    user = userEvent.setup();
    view = render(<Harness onCloseSpy={onClose} />);
    onClose.mockClear();
  });
  afterEach(cleanup);

  /** The visitor clicks Open (which also gives it focus). */
  const open = () => user.click(button('Open'));

  it('is a labelled modal dialog rendered into <body>, and focus moves into it', async () => {
    await open();
    expect(dialog().getAttribute('aria-modal')).toBe('true');
    expect(dialog().getAttribute('aria-labelledby')).toBe('t');
    expect(screen.getByRole('dialog', { name: 'Title' })).toBe(dialog());
    expect(view.container.contains(dialog())).toBe(false);
    expect(document.activeElement).toBe(within(dialog()).getByRole('button', { name: 'First' }));
    expect(document.documentElement.classList.contains(MODAL_OPEN_CLASS)).toBe(true);
  });

  it('keeps Tab and Shift+Tab inside', async () => {
    await open();
    await user.tab();
    expect(document.activeElement).toBe(button('Last'));
    await user.tab();
    expect(document.activeElement).toBe(button('First'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(button('Last'));
  });

  it('brings focus back when it lands outside', async () => {
    await open();
    // Focus put outside by something other than the keyboard (a script, a screen reader's
    // cursor); user-event has no gesture for that, so it is moved directly.
    act(() => button('Outside').focus());
    expect(document.activeElement).toBe(button('First'));
  });

  it('closes on Esc and returns focus to the opener', async () => {
    await open();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button('Open'));
    expect(document.documentElement.classList.contains(MODAL_OPEN_CLASS)).toBe(false);
  });

  it('closes on a backdrop click', async () => {
    await open();
    // The backdrop is decoration (aria-hidden, no name): found by its class.
    await user.click(document.querySelector('.modal__backdrop')!);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(button('Open'));
  });

  it('returns focus however it closes', async () => {
    await open();
    await user.click(button('Last'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button('Open'));
  });
});
