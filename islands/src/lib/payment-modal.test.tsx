// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRef } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { PaymentModal, type PaymentModalProps } from './payment-modal';
import { MODAL_OPEN_CLASS as OPEN_CLASS } from './dialog';
import { PaymentError, type GatewayHandOff } from './payment';
import { descriptionOf } from '../test-utils';

const HAND_OFF: GatewayHandOff = { orderId: 'ORD1', encRequest: 'ab', accessCode: 'AC', gatewayUrl: '/test-gateway' };

type ModalProps = Omit<PaymentModalProps, 'returnFocus'>;

/** A page with the Register Now button that opened the modal, and the modal while `open`. */
function Page({ open, ...props }: ModalProps & { open: boolean }) {
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" ref={opener}>
        Register Now
      </button>
      {open && <PaymentModal {...props} returnFocus={opener} />}
    </>
  );
}

let user: UserEvent;
beforeEach(() => {
  user = userEvent.setup();
});
afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** The visitor presses Register Now (which takes focus), and the modal opens. */
async function open(props: Partial<ModalProps> = {}) {
  const onClose = vi.fn();
  const start = vi.fn(async () => HAND_OFF);
  const all: ModalProps = {
    kind: 'registration',
    title: 'Register: Presenter Virtual',
    summary: 'Presenter Virtual ticket',
    amountLabel: 'USD 219.00',
    target: { plan: 'presenter-virtual' },
    onClose,
    start,
    ...props,
  };
  const view = render(<Page open={false} {...all} />);
  await user.click(opener());
  view.rerender(<Page open {...all} />);
  const close = () => view.rerender(<Page open={false} {...all} />);
  return { onClose, start: (props.start as typeof start | undefined) ?? start, close };
}

const opener = () => screen.getByRole('button', { name: 'Register Now' });
const dialog = () => screen.getByRole('dialog');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its visible label (the required marker '*' apart). */
const field = (label: string) => within(dialog()).getByLabelText(new RegExp(`^${escape(label)}\\s*\\*?$`)) as HTMLInputElement;
const button = (name: string | RegExp) => within(dialog()).getByRole('button', { name });
const fieldLabels = () => Array.from(dialog().querySelectorAll('.checkout__field > label'), (l) => l.textContent?.replace('*', '').trim());

const submit = () => user.click(button(/^Pay Now/));

async function fillRequired() {
  await user.type(field('Name'), 'Ada Lovelace');
  await user.type(field('Email'), 'ada@example.org');
  await user.type(field('Phone'), '+1 201 555 0123');
  await user.type(field('ZIP Code'), '62701');
  await user.type(field('Country'), 'United States');
}

describe('PaymentModal', () => {
  it('is a labelled modal dialog with the spec fields and Pay Now showing amount and currency', async () => {
    await open();
    const d = dialog();
    expect(d.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Register: Presenter Virtual' })).toBe(d);
    expect(fieldLabels()).toEqual(['Name', 'Email', 'Phone', 'Address', 'City', 'State', 'ZIP Code', 'Country']);
    expect(field('Phone').type).toBe('tel');
    expect(field('Email').type).toBe('email');
    expect(button(/^Pay Now/).textContent).toBe('Pay Now USD 219.00');
    expect(button('Cancel')).toBeTruthy();
    expect(button('Close')).toBeTruthy();
    expect(document.documentElement.classList.contains(OPEN_CLASS)).toBe(true);
  });

  it('moves focus into the dialog, and back to the opener when it closes', async () => {
    const { close } = await open();
    expect(dialog().contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(field('Name'));
    close();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());
    expect(document.documentElement.classList.contains(OPEN_CLASS)).toBe(false);
  });

  it('closes on Esc, Cancel and the close icon', async () => {
    const { onClose } = await open();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(button('Cancel'));
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.click(button('Close'));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('keeps Tab inside the dialog', async () => {
    await open();
    const pay = button(/^Pay Now/);
    // From Name (focused on opening) Shift+Tab reaches the close icon, the first stop...
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(button('Close'));
    // ...and wraps round to Pay Now, the last one.
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(pay);
    await user.tab();
    expect(document.activeElement).toBe(button('Close'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(pay);
  });

  it('shows required-field errors inline and sends nothing', async () => {
    const { start } = await open();
    await submit();
    expect(start).not.toHaveBeenCalled();
    expect(descriptionOf(field('Name'))).toBe('Please enter your name');
    expect(descriptionOf(field('Email'))).toBe('Please enter your email address');
    expect(descriptionOf(field('Phone'))).toBe('Please enter your phone number');
    expect(descriptionOf(field('ZIP Code'))).toBe('Please enter your ZIP code');
    expect(descriptionOf(field('Country'))).toBe('Please enter your country');
    for (const optional of ['Address', 'City', 'State']) {
      expect(field(optional).getAttribute('aria-invalid')).toBeNull();
    }
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Name'));
  });

  it('sends the plan and the form, without amount or currency', async () => {
    const { start } = await open();
    await fillRequired();
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
    await waitFor(() => expect(within(dialog()).getByRole('status').textContent).toMatch(/secure payment page/));
  });

  it("maps the server's 422 onto the fields and keeps what was typed", async () => {
    const start = vi.fn(async () => {
      throw new PaymentError('Please check the highlighted fields and try again.', 422, {
        email: 'Please enter a valid email address',
        zip: 'Must be at most 15 characters',
      });
    });
    await open({ start });
    await fillRequired();
    await submit();
    await waitFor(() => expect(descriptionOf(field('Email'))).toBe('Please enter a valid email address'));
    expect(descriptionOf(field('ZIP Code'))).toBe('Must be at most 15 characters');
    expect(within(dialog()).getByRole('alert').textContent).toContain('Please check the highlighted fields and try again.');
    expect(field('Name').value).toBe('Ada Lovelace');
    expect(document.activeElement).toBe(field('Email'));
  });

  it('says clearly when the payment cannot start, offers the contact address, and allows a retry', async () => {
    let fail = true;
    const start = vi.fn(async () => {
      if (fail) throw new PaymentError('We could not reach the server.', null);
      return HAND_OFF;
    });
    await open({ start, contactEmail: 'info@example.org' });
    await fillRequired();
    await submit();
    const alert = await within(dialog()).findByRole('alert');
    expect(alert.textContent).toContain('We could not reach the server.');
    expect(within(alert).getByRole('link').getAttribute('href')).toBe('mailto:info@example.org');
    fail = false;
    await submit();
    expect(start).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(within(dialog()).queryByRole('alert')).toBeNull());
  });

  it('asks a sponsor only for name and email', async () => {
    const { start } = await open({ kind: 'sponsor', target: { sponsorPackage: 'gold' }, amountLabel: 'USD 10,000.00' });
    expect(fieldLabels()).toEqual(['Name', 'Email']);
    await user.type(field('Name'), 'Acme Inc');
    await user.type(field('Email'), 'pay@acme.test');
    await submit();
    expect(start.mock.calls[0]).toEqual([{ sponsorPackage: 'gold', name: 'Acme Inc', email: 'pay@acme.test' }, expect.anything()]);
  });
});
