// The button that opens the payment modal, shared by ticket cards (TicketCheckout) and sponsor
// packages (SponsorCheckout): same look as the server's fallback link it replaces, focus back
// on it when the modal closes.

import { useRef, useState, type ReactNode } from 'react';
import { formatDisplay } from './money';
import { PaymentModal, type PaymentModalProps } from './payment-modal';

export interface CheckoutButtonProps {
  /** Visible text, e.g. "Register Now"; the item's title follows for screen readers. */
  label: string;
  /** The item's title, e.g. "Presenter Virtual" or "Gold". */
  title: string;
  /** Price in cents, for display only (the server charges its own price). */
  amountCents: number;
  currency: string;
  kind: PaymentModalProps['kind'];
  /** The dialog's heading, e.g. "Register: Presenter Virtual". */
  modalTitle: string;
  /** What is bought, given the formatted amount, e.g. "Gold sponsor package, USD 10,000.00". */
  summary: (amount: ReactNode) => ReactNode;
  target: PaymentModalProps['target'];
  contactEmail?: string;
}

export function CheckoutButton({ label, title, amountCents, currency, kind, modalTitle, summary, target, contactEmail }: CheckoutButtonProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const amountLabel = formatDisplay(amountCents, currency);
  return (
    <>
      <button ref={opener} type="button" className="button button--primary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {label}
        <span className="visually-hidden"> for {title}</span>
      </button>
      {open && (
        <PaymentModal
          kind={kind}
          title={modalTitle}
          summary={summary(<strong>{amountLabel}</strong>)}
          amountLabel={amountLabel}
          target={target}
          contactEmail={contactEmail}
          returnFocus={opener}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
