// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import CustomPayment from './CustomPayment';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
let root: Root;

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root.render(<CustomPayment currency="USD" />));
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const amountInput = () => host.querySelector<HTMLInputElement>('#custom-amount')!;
const breakdown = () =>
  Array.from(host.querySelectorAll('.custom-payment__breakdown dl > div'), (row) => [
    row.querySelector('dt')!.textContent,
    row.querySelector('dd')!.textContent,
  ]);

function type(value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(amountInput(), value);
    amountInput().dispatchEvent(new Event('input', { bubbles: true }));
  });
}

// happy-dom has no window.alert; the island calls window.alert.
function stubAlert() {
  const alert = vi.fn();
  window.alert = alert;
  return alert;
}

function pay() {
  act(() => host.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
}

describe('CustomPayment', () => {
  it('has a labelled numeric amount, minimum 0, step 0.01', () => {
    const input = amountInput();
    expect(host.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Amount (USD)');
    expect([input.type, input.min, input.step]).toEqual(['number', '0', '0.01']);
  });

  it('shows amount, 6% tax, total and the reforestation note only for a positive number', () => {
    expect(host.querySelector('.custom-payment__breakdown')).toBeNull();
    type('100');
    expect(breakdown()).toEqual([
      ['Amount', 'USD 100.00'],
      ['Tax (6%)', 'USD 6.00'],
      ['Total', 'USD 106.00'],
    ]);
    expect(host.textContent).toContain('5% of the fee goes to reforestation.');
    type('0.25');
    expect(breakdown()[2]).toEqual(['Total', 'USD 0.27']);
    for (const value of ['0', '', '-5']) {
      type(value);
      expect(host.querySelector('.custom-payment__breakdown'), value).toBeNull();
    }
  });

  it("alerts 'Please enter a valid amount' for an empty, zero or negative amount and opens nothing", () => {
    const alert = stubAlert();
    for (const value of ['', '0', '-1']) {
      type(value);
      pay();
    }
    expect(alert.mock.calls).toEqual([
      ['Please enter a valid amount'],
      ['Please enter a valid amount'],
      ['Please enter a valid amount'],
    ]);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('opens the registration modal with Pay Now showing the taxed total', () => {
    const alert = stubAlert();
    type('100');
    pay();
    expect(alert).not.toHaveBeenCalled();
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.querySelector('.checkout__pay')?.textContent).toBe('Pay Now USD 106.00');
    expect(dialog.querySelector('.checkout__summary')?.textContent).toBe('USD 100.00 plus 6% tax (USD 6.00): USD 106.00');
  });
});
