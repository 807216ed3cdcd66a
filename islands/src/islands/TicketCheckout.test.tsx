// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TicketCheckout from './TicketCheckout';
import SponsorCheckout from './SponsorCheckout';

afterEach(cleanup);

describe('TicketCheckout', () => {
  it('replaces the link with a Register Now button that opens the modal for its plan', async () => {
    const user = userEvent.setup();
    render(<TicketCheckout plan="presenter-virtual" title="Presenter Virtual" amountCents={21900} currency="USD" />);
    const button = screen.getByRole('button', { name: 'Register Now for Presenter Virtual' });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(button);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toBe('Register: Presenter Virtual');
    expect(within(dialog).getByRole('button', { name: 'Pay Now USD 219.00' })).toBeTruthy();
    expect(dialog.textContent).toContain('Presenter Virtual ticket, USD 219.00');
  });

  it('closes on Esc and gives focus back to Register Now', async () => {
    const user = userEvent.setup();
    render(<TicketCheckout plan="listener-physical" title="Listener Physical" amountCents={19900} currency="USD" />);
    const button = screen.getByRole('button', { name: /Register Now/ });
    await user.click(button);
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('SponsorCheckout', () => {
  it("opens a name-and-email modal from 'Sponsor now' with the package price", async () => {
    const user = userEvent.setup();
    render(<SponsorCheckout sponsorPackage="platinum" title="Platinum" amountCents={1500000} currency="USD" />);
    const button = screen.getByRole('button', { name: 'Sponsor now for Platinum' });
    await user.click(button);
    const dialog = screen.getByRole('dialog');
    const labels = Array.from(dialog.querySelectorAll('.checkout__field > label'), (l) => l.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Name', 'Email']);
    expect(within(dialog).getByRole('button', { name: 'Pay Now USD 15,000.00' })).toBeTruthy();
    expect(dialog.textContent).toContain('Platinum sponsor package, USD 15,000.00');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
