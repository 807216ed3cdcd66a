// Register Now on a ticket card (spec section 2: /pricing; DESIGN.md section 7: registration
// modal with phone input). Props come from the server (src/handlers/pages/info.rs `pricing`):
// the plan id the API takes and the price to show. The server charges its own price.
//
// The server fallback is the card's Register Now link (to /pricing?plan=ID#plan-ID, which
// explains that paying online needs JavaScript); this island replaces it with a button of the
// same look that opens the modal. It loads on intent (data-hydrate="intent").

import { CheckoutButton } from '../lib/checkout-button';

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

export default function TicketCheckout({ plan, title, ...rest }: TicketCheckoutProps) {
  return (
    <CheckoutButton
      {...rest}
      label="Register Now"
      title={title}
      kind="registration"
      modalTitle={`Register: ${title}`}
      summary={(amount) => (
        <>
          {title} ticket, {amount}
        </>
      )}
      target={{ plan }}
    />
  );
}
