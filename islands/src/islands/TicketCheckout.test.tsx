// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import TicketCheckout from './TicketCheckout';
import SponsorCheckout from './SponsorCheckout';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
let root: Root;

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
});

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');

function openWith(button: HTMLButtonElement) {
  button.focus();
  act(() => button.click());
}

describe('TicketCheckout', () => {
  it('replaces the link with a Register Now button that opens the modal for its plan', () => {
    act(() => root.render(<TicketCheckout plan="presenter-virtual" title="Presenter Virtual" amountCents={21900} currency="USD" />));
    const button = host.querySelector('button')!;
    expect(button.textContent).toBe('Register Now for Presenter Virtual');
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(dialog()).toBeNull();
    openWith(button);
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Register: Presenter Virtual');
    expect(dialog()?.querySelector('.checkout__pay')?.textContent).toBe('Pay Now USD 219.00');
  });

  it('closes on Esc and gives focus back to Register Now', () => {
    act(() => root.render(<TicketCheckout plan="listener-physical" title="Listener Physical" amountCents={19900} currency="USD" />));
    const button = host.querySelector('button')!;
    openWith(button);
    expect(dialog()!.contains(document.activeElement)).toBe(true);
    act(() => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('SponsorCheckout', () => {
  it("opens a name-and-email modal from 'Sponsor now' with the package price", () => {
    act(() => root.render(<SponsorCheckout sponsorPackage="platinum" title="Platinum" amountCents={1500000} currency="USD" />));
    const button = host.querySelector('button')!;
    expect(button.textContent).toBe('Sponsor now for Platinum');
    openWith(button);
    const labels = Array.from(dialog()!.querySelectorAll('.checkout__field > label'), (l) => l.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Name', 'Email']);
    expect(dialog()!.querySelector('.checkout__pay')?.textContent).toBe('Pay Now USD 15,000.00');
    act(() => dialog()!.querySelector<HTMLButtonElement>('button[aria-label="Close"]')!.click());
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
