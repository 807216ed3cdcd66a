// Modal dialogs for every island (DESIGN.md section 7: role="dialog", aria-modal, a label,
// focus trapped inside while open and returned afterwards; Esc closes).
//
//   const ref = useDialog<HTMLDivElement>(open, close, { returnFocus: openerRef });
//   <div role="dialog" aria-modal="true" aria-labelledby="..." tabIndex={-1} ref={ref}>...</div>
//
// or the ready-made <Modal> below, which adds the portal, the backdrop and those attributes.
// Dialogs can nest (the notice's letter viewer, a drawer over a page): only the topmost one
// answers Esc and keeps focus.

import { useEffect, useRef, type KeyboardEventHandler, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

/** Class on <html> while any modal is open: the page behind stops scrolling (islands.css). */
export const MODAL_OPEN_CLASS = 'has-modal';

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
].join(',');

/** Elements Tab reaches inside `root`, in document order (hidden and inert ones left out). */
export function focusableIn(root: ParentNode): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.tabIndex >= 0 && !el.closest('[hidden],[inert],[aria-hidden="true"]'),
  );
}

/**
 * Where Tab (or Shift+Tab when `backwards`) goes from `current` among `count` focusable
 * elements when it must stay inside: wraps at both ends. `current` -1 means focus is not on
 * one of them (the dialog itself, or outside). Returns -1 when there is nothing to focus.
 */
export function wrapIndex(current: number, count: number, backwards: boolean): number {
  if (count <= 0) return -1;
  if (current < 0) return backwards ? count - 1 : 0;
  return backwards ? (current - 1 + count) % count : (current + 1) % count;
}

/** Open dialogs, innermost last. */
const stack: HTMLElement[] = [];

/** Whether `el` is the dialog that currently owns Esc and focus. */
export function isTopDialog(el: HTMLElement): boolean {
  return stack[stack.length - 1] === el;
}

export interface DialogOptions {
  /** What gets focus on open; default: the first focusable element, else the dialog. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes on close, read at that moment; default: what had focus on open. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Stop the page behind from scrolling while open (default true). */
  lockScroll?: boolean;
}

/**
 * Focus management for a modal: while `open`, focus moves in, Tab and Shift+Tab wrap inside,
 * focus that lands outside is brought back, Esc calls `onClose`; on close (or unmount) focus
 * returns. Put the returned ref on the element with role="dialog" (give it tabIndex={-1}).
 */
export function useDialog<T extends HTMLElement = HTMLElement>(
  open: boolean,
  onClose: () => void,
  options: DialogOptions = {},
): RefObject<T | null> {
  const ref = useRef<T | null>(null);
  // Latest values without re-running the effect (which would move focus again).
  const latest = useRef({ onClose, options });
  latest.current = { onClose, options };

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { initialFocus, lockScroll = true } = latest.current.options;
    stack.push(dialog);
    if (lockScroll) document.documentElement.classList.add(MODAL_OPEN_CLASS);

    const focusFirst = () => (focusableIn(dialog)[0] ?? dialog).focus();
    (initialFocus?.current ?? null)?.focus();
    if (!dialog.contains(document.activeElement)) focusFirst();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!isTopDialog(dialog) || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        latest.current.onClose();
      } else if (event.key === 'Tab') {
        const items = focusableIn(dialog);
        const current = items.indexOf(document.activeElement as HTMLElement);
        const atEdge = current < 0 || (event.shiftKey ? current === 0 : current === items.length - 1);
        if (!atEdge) return; // the browser's own order inside the dialog is right
        event.preventDefault();
        const next = wrapIndex(current, items.length, event.shiftKey);
        (next >= 0 ? items[next] : dialog).focus();
      }
    };
    // Focus that lands outside (a click on the backdrop, a script, a screen reader's cursor).
    const onFocusIn = (event: FocusEvent) => {
      if (isTopDialog(dialog) && event.target instanceof Node && !dialog.contains(event.target)) focusFirst();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      const at = stack.lastIndexOf(dialog);
      if (at >= 0) stack.splice(at, 1);
      if (stack.length === 0) document.documentElement.classList.remove(MODAL_OPEN_CLASS);
      const target = latest.current.options.returnFocus?.current ?? opener;
      if (target && target.isConnected) target.focus({ preventScroll: false });
    };
  }, [open]);

  return ref;
}

export interface ModalProps extends DialogOptions {
  open: boolean;
  onClose: () => void;
  /** id of the element that names the dialog. */
  labelledBy: string;
  describedBy?: string;
  /** Class of the dialog panel (e.g. "drawer", "viewer"); the wrapper gets `${className}-modal`. */
  className: string;
  /** A click on the backdrop closes (default true). */
  closeOnBackdrop?: boolean;
  /** Keys pressed inside (focus stays inside while open), e.g. a viewer's arrows. */
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  children: ReactNode;
}

/**
 * A modal rendered into <body> (so no transformed ancestor becomes the containing block of its
 * fixed position): a backdrop and the dialog panel. Renders nothing while closed.
 */
export function Modal({ open, onClose, labelledBy, describedBy, className, closeOnBackdrop = true, onKeyDown, children, ...options }: ModalProps) {
  const ref = useDialog<HTMLDivElement>(open, onClose, options);
  if (!open) return null;
  return createPortal(
    <div className={`modal ${className}-modal`}>
      <div className="modal__backdrop" aria-hidden="true" onClick={closeOnBackdrop ? onClose : undefined} />
      <div
        ref={ref}
        className={className}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
