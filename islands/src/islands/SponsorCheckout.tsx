// 'Sponsor now' on a sponsor package card (spec section 2: /sponsorship). The modal asks only
// for name and email: the spec's sponsor order has no billing address (spec section 3). Props
// come from the server (src/handlers/pages/about.rs `sponsorship`); the server charges its
// own price for the package.
//
// The server fallback is a link to /sponsorship?package=ID#package-ID, which explains that
// paying online needs JavaScript. It loads on intent (data-hydrate="intent").

import { CheckoutButton } from '../lib/checkout-button';

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

export default function SponsorCheckout({ sponsorPackage, title, ...rest }: SponsorCheckoutProps) {
  return (
    <CheckoutButton
      {...rest}
      label="Sponsor now"
      title={title}
      kind="sponsor"
      modalTitle={`Sponsor: ${title}`}
      summary={(amount) => (
        <>
          {title} sponsor package, {amount}
        </>
      )}
      target={{ sponsorPackage }}
    />
  );
}
