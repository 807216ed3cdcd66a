// 'Sponsor now' on a sponsor package card (spec section 2: /sponsorship). The modal asks only
// for name and email: the spec's sponsor order has no billing address (spec section 3). Props
// come from the server (src/handlers/pages/about.rs `sponsorship`); the server charges its
// own price for the package.
//
// The server fallback is a link to /sponsorship?package=ID#package-ID, which explains that
// paying online needs JavaScript.

import { useRef, useState } from 'react';
import { formatDisplay } from '../lib/money';
import { PaymentModal } from '../lib/payment-modal';

export interface SponsorCheckoutProps {
  /** Sponsor package id: `platinum`, `diamond`, `gold` or `silver` (DESIGN.md section 5). */
  sponsorPackage: string;
  /** The package's title, e.g. "Platinum". */
  title: string;
  /** Price in cents, for display only. */
  amountCents: number;
  currency: string;
  contactEmail?: string;
}

export default function SponsorCheckout({ sponsorPackage, title, amountCents, currency, contactEmail }: SponsorCheckoutProps) {
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
        Sponsor now<span className="visually-hidden"> for {title}</span>
      </button>
      {open && (
        <PaymentModal
          kind="sponsor"
          title={`Sponsor: ${title}`}
          summary={
            <>
              {title} sponsor package, <strong>{amountLabel}</strong>
            </>
          }
          amountLabel={amountLabel}
          target={{ sponsorPackage }}
          contactEmail={contactEmail}
          returnFocus={opener}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
