// Register Now on a ticket card (spec section 2: /pricing; DESIGN.md section 7: registration
// modal with phone input). Props come from the server (src/handlers/pages/info.rs `pricing`):
// the plan id the API takes and the price to show. The server charges its own price.
//
// The server fallback is the card's Register Now link (to /pricing?plan=ID#plan-ID, which
// explains that paying online needs JavaScript); this island replaces it with a button of the
// same look that opens the modal.

import { useRef, useState } from 'react';
import { formatDisplay } from '../lib/money';
import { PaymentModal } from '../lib/payment-modal';

export interface TicketCheckoutProps {
  /** Ticket plan id, e.g. `presenter-virtual` (DESIGN.md section 5). */
  plan: string;
  /** The plan's title, e.g. "Presenter Virtual". */
  title: string;
  /** Price in cents, for display only. */
  amountCents: number;
  currency: string;
  contactEmail?: string;
}

export default function TicketCheckout({ plan, title, amountCents, currency, contactEmail }: TicketCheckoutProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const amountLabel = formatDisplay(amountCents, currency);
  return (
    <>
      <button
        ref={opener}
        type="button"
        className="button button--primary"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Register Now<span className="visually-hidden"> for {title}</span>
      </button>
      {open && (
        <PaymentModal
          kind="registration"
          title={`Register: ${title}`}
          summary={
            <>
              {title} ticket, <strong>{amountLabel}</strong>
            </>
          }
          amountLabel={amountLabel}
          target={{ plan }}
          contactEmail={contactEmail}
          returnFocus={opener}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
