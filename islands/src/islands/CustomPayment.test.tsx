// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import CustomPayment from './CustomPayment';

let user: UserEvent;
let view: RenderResult;

beforeEach(() => {
  user = userEvent.setup();
  view = render(<CustomPayment currency="USD" />);
});

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const amountInput = () => screen.getByLabelText('Amount (USD)') as HTMLInputElement;
// The breakdown is a plain description list with no accessible name of its own.
const breakdownBox = () => view.container.querySelector('.custom-payment__breakdown');
const breakdown = () =>
  Array.from(breakdownBox()?.querySelectorAll('dl > div') ?? [], (row) => [
    within(row as HTMLElement).getByRole('term').textContent,
    within(row as HTMLElement).getByRole('definition').textContent,
  ]);

/** Replaces what is in the amount box with `value`, key by key. */
async function type(value: string) {
  await user.clear(amountInput());
  if (value) await user.type(amountInput(), value);
}

// happy-dom has no window.alert; the island calls window.alert.
function stubAlert() {
  const alert = vi.fn();
  window.alert = alert;
  return alert;
}

const pay = () => user.click(screen.getByRole('button', { name: 'Pay' }));

describe('CustomPayment', () => {
  it('has a labelled numeric amount, minimum 0, step 0.01', () => {
    const input = amountInput();
    expect(input.labels?.[0]?.textContent).toBe('Amount (USD)');
    expect([input.type, input.min, input.step]).toEqual(['number', '0', '0.01']);
  });

  it('shows amount, 6% tax, total and the reforestation note only for a positive number', async () => {
    expect(breakdownBox()).toBeNull();
    await type('100');
    expect(breakdown()).toEqual([
      ['Amount', 'USD 100.00'],
      ['Tax (6%)', 'USD 6.00'],
      ['Total', 'USD 106.00'],
    ]);
    expect(view.container.textContent).toContain('5% of the fee goes to reforestation.');
    await type('0.25');
    expect(breakdown()[2]).toEqual(['Total', 'USD 0.27']);
    for (const value of ['0', '', '-5']) {
      await type(value);
      expect(amountInput().value, value).toBe(value);
      expect(breakdownBox(), value).toBeNull();
    }
  });

  it("alerts 'Please enter a valid amount' for an empty, zero or negative amount and opens nothing", async () => {
    const alert = stubAlert();
    for (const value of ['', '0', '-1']) {
      await type(value);
      await pay();
    }
    expect(alert.mock.calls).toEqual([
      ['Please enter a valid amount'],
      ['Please enter a valid amount'],
      ['Please enter a valid amount'],
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the registration modal with Pay Now showing the taxed total', async () => {
    const alert = stubAlert();
    await type('100');
    await pay();
    expect(alert).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('button', { name: /^Pay Now/ }).textContent).toBe('Pay Now USD 106.00');
    expect(dialog.querySelector('.checkout__summary')?.textContent).toBe('USD 100.00 plus 6% tax (USD 6.00): USD 106.00');
  });
});
