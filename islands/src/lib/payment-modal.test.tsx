// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { PaymentModal, type PaymentModalProps } from './payment-modal';
import { MODAL_OPEN_CLASS as OPEN_CLASS } from './dialog';
import { PaymentError, type GatewayHandOff } from './payment';

// React's act() needs to know it runs in a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
let root: Root;
let opener: HTMLButtonElement;

beforeEach(() => {
  opener = document.createElement('button');
  opener.textContent = 'Register Now';
  document.body.append(opener);
  opener.focus();
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const HAND_OFF: GatewayHandOff = { orderId: 'ORD1', encRequest: 'ab', accessCode: 'AC', gatewayUrl: '/test-gateway' };

function open(props: Partial<PaymentModalProps> = {}) {
  const onClose = vi.fn();
  const start = vi.fn(async () => HAND_OFF);
  const returnFocus = createRef<HTMLElement>() as { current: HTMLElement | null };
  returnFocus.current = opener;
  act(() =>
    root.render(
      <PaymentModal
        kind="registration"
        title="Register: Presenter Virtual"
        summary="Presenter Virtual ticket"
        amountLabel="USD 219.00"
        target={{ plan: 'presenter-virtual' }}
        returnFocus={returnFocus}
        onClose={onClose}
        start={start}
        {...props}
      />,
    ),
  );
  return { onClose, start: (props.start as typeof start | undefined) ?? start };
}

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')!;
const field = (label: string) => {
  const l = Array.from(dialog().querySelectorAll('label')).find((el) => el.textContent?.replace('*', '').trim() === label);
  if (!l) throw new Error(`no field labelled ${label}`);
  return document.getElementById(l.htmlFor) as HTMLInputElement;
};
const button = (name: string | RegExp) =>
  Array.from(dialog().querySelectorAll('button')).find((b) =>
    typeof name === 'string' ? (b.getAttribute('aria-label') ?? b.textContent) === name : name.test(b.textContent ?? ''),
  )!;
const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => {
    button(/^Pay Now/).click();
  });
}

function fillRequired() {
  type(field('Name'), 'Ada Lovelace');
  type(field('Email'), 'ada@example.org');
  type(field('Phone'), '+1 201 555 0123');
  type(field('ZIP Code'), '62701');
  type(field('Country'), 'United States');
}

describe('PaymentModal', () => {
  it('is a labelled modal dialog with the spec fields and Pay Now showing amount and currency', () => {
    open();
    const d = dialog();
    expect(d.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(d.getAttribute('aria-labelledby')!)?.textContent).toBe('Register: Presenter Virtual');
    const labels = Array.from(d.querySelectorAll('.checkout__field > label'), (l) => l.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Name', 'Email', 'Phone', 'Address', 'City', 'State', 'ZIP Code', 'Country']);
    expect(field('Phone').type).toBe('tel');
    expect(field('Email').type).toBe('email');
    expect(button(/^Pay Now/).textContent).toBe('Pay Now USD 219.00');
    expect(button('Cancel')).toBeTruthy();
    expect(button('Close')).toBeTruthy();
    expect(document.documentElement.classList.contains(OPEN_CLASS)).toBe(true);
  });

  it('moves focus into the dialog, and back to the opener when it closes', () => {
    open();
    expect(dialog().contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(field('Name'));
    act(() => root.render(<></>));
    expect(document.activeElement).toBe(opener);
    expect(document.documentElement.classList.contains(OPEN_CLASS)).toBe(false);
  });

  it('closes on Esc, Cancel and the close icon', () => {
    const { onClose } = open();
    act(() => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    act(() => button('Cancel').click());
    act(() => button('Close').click());
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('keeps Tab inside the dialog', () => {
    open();
    const pay = button(/^Pay Now/);
    pay.focus();
    act(() => {
      pay.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true }));
    });
    expect(document.activeElement).toBe(button('Close'));
    act(() => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, cancelable: true }));
    });
    expect(document.activeElement).toBe(pay);
  });

  it('shows required-field errors inline and sends nothing', async () => {
    const { start } = open();
    await submit();
    expect(start).not.toHaveBeenCalled();
    expect(errorOf(field('Name'))).toBe('Please enter your name');
    expect(errorOf(field('Email'))).toBe('Please enter your email address');
    expect(errorOf(field('Phone'))).toBe('Please enter your phone number');
    expect(errorOf(field('ZIP Code'))).toBe('Please enter your ZIP code');
    expect(errorOf(field('Country'))).toBe('Please enter your country');
    for (const optional of ['Address', 'City', 'State']) {
      expect(field(optional).getAttribute('aria-invalid')).toBeNull();
    }
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Name'));
  });

  it('sends the plan and the form, without amount or currency', async () => {
    const { start } = open();
    fillRequired();
    await submit();
    expect(start).toHaveBeenCalledTimes(1);
    const [payload] = start.mock.calls[0] as unknown as [Record<string, string>];
    expect(payload).toEqual({
      plan: 'presenter-virtual',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      phone: '+12015550123',
      address: '',
      city: '',
      state: '',
      zip: '62701',
      country: 'United States',
    });
    expect(dialog().querySelector('[role="status"]')?.textContent).toMatch(/secure payment page/);
  });

  it("maps the server's 422 onto the fields and keeps what was typed", async () => {
    const start = vi.fn(async () => {
      throw new PaymentError('Please check the highlighted fields and try again.', 422, {
        email: 'Please enter a valid email address',
        zip: 'Must be at most 15 characters',
      });
    });
    open({ start });
    fillRequired();
    await submit();
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(errorOf(field('Email'))).toBe('Please enter a valid email address');
    expect(errorOf(field('ZIP Code'))).toBe('Must be at most 15 characters');
    expect(dialog().querySelector('[role="alert"]')?.textContent).toContain('Please check the highlighted fields and try again.');
    expect(field('Name').value).toBe('Ada Lovelace');
    expect(document.activeElement).toBe(field('Email'));
  });

  it('says clearly when the payment cannot start, offers the contact address, and allows a retry', async () => {
    let fail = true;
    const start = vi.fn(async () => {
      if (fail) throw new PaymentError('We could not reach the server.', null);
      return HAND_OFF;
    });
    open({ start, contactEmail: 'info@example.org' });
    fillRequired();
    await submit();
    const alert = dialog().querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain('We could not reach the server.');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('mailto:info@example.org');
    fail = false;
    await submit();
    expect(start).toHaveBeenCalledTimes(2);
    expect(dialog().querySelector('[role="alert"]')).toBeNull();
  });

  it('asks a sponsor only for name and email', async () => {
    const { start } = open({ kind: 'sponsor', target: { sponsorPackage: 'gold' }, amountLabel: 'USD 10,000.00' });
    const labels = Array.from(dialog().querySelectorAll('.checkout__field > label'), (l) => l.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Name', 'Email']);
    type(field('Name'), 'Acme Inc');
    type(field('Email'), 'pay@acme.test');
    await submit();
    expect(start.mock.calls[0]).toEqual([{ sponsorPackage: 'gold', name: 'Acme Inc', email: 'pay@acme.test' }, expect.anything()]);
  });
});
