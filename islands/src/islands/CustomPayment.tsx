// The Custom Payment card's form (spec sections 2, 5 and 9): an amount (min 0, step 0.01);
// for a positive amount a breakdown of amount, 6% tax and total (amount x 1.06, two decimals)
// and the reforestation note; Pay with an empty, non-numeric or non-positive amount alerts
// 'Please enter a valid amount'; a valid one opens the registration modal, which sends the
// amount as typed and lets the server compute the same total (src/base/money.rs).
//
// The server fallback is the same form as a GET to /pricing, where the server shows the
// breakdown and explains that paying online needs JavaScript.

import { useRef, useState, type FormEvent } from 'react';
import {
  CUSTOM_TAX_PERCENT,
  INVALID_AMOUNT_MESSAGE,
  REFORESTATION_PERCENT,
  customBreakdown,
  formatDisplay,
} from '../lib/money';
import { PaymentModal } from '../lib/payment-modal';

export interface CustomPaymentProps {
  /** Currency the server charges custom payments in, e.g. "USD". */
  currency: string;
  contactEmail?: string;
  /** The amount the server's fallback was showing (a GET to /pricing?amount=...), if any. */
  initialAmount?: string;
}

export default function CustomPayment({ currency, contactEmail, initialAmount = '' }: CustomPaymentProps) {
  const [amount, setAmount] = useState(initialAmount);
  const [open, setOpen] = useState<string | null>(null);
  const payRef = useRef<HTMLButtonElement>(null);
  const breakdown = customBreakdown(amount);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!customBreakdown(amount)) {
      window.alert(INVALID_AMOUNT_MESSAGE);
      return;
    }
    setOpen(amount.trim());
  };

  const chosen = open === null ? null : customBreakdown(open);
  // The modal sits beside the form, not in it: React events bubble through portals, and the
  // modal's own submit must not reach this form.
  return (
    <>
      <form className="form custom-payment__form" method="get" action="/pricing#custom-payment" noValidate onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="custom-amount">Amount ({currency})</label>
          <input
            id="custom-amount"
            name="amount"
            type="number"
            min="0"
            step="0.01"
            inputMode="decimal"
            aria-describedby="custom-amount-hint"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
        <p className="custom-payment__hint" id="custom-amount-hint">
          A {CUSTOM_TAX_PERCENT}% tax is added to the amount.
        </p>
        {breakdown && (
          <div className="custom-payment__breakdown">
            <dl>
              <div>
                <dt>Amount</dt>
                <dd>{formatDisplay(breakdown.amountCents, currency)}</dd>
              </div>
              <div>
                <dt>Tax ({CUSTOM_TAX_PERCENT}%)</dt>
                <dd>{formatDisplay(breakdown.taxCents, currency)}</dd>
              </div>
              <div className="custom-payment__total">
                <dt>Total</dt>
                <dd>{formatDisplay(breakdown.totalCents, currency)}</dd>
              </div>
            </dl>
            <p className="custom-payment__note">{REFORESTATION_PERCENT}% of the fee goes to reforestation.</p>
          </div>
        )}
        <button ref={payRef} className="button button--primary" type="submit">
          Pay
        </button>
      </form>
      {open !== null && chosen && (
        <PaymentModal
          kind="registration"
          title="Custom Payment"
          summary={
            <>
              {formatDisplay(chosen.amountCents, currency)} plus {CUSTOM_TAX_PERCENT}% tax (
              {formatDisplay(chosen.taxCents, currency)}): <strong>{formatDisplay(chosen.totalCents, currency)}</strong>
            </>
          }
          amountLabel={formatDisplay(chosen.totalCents, currency)}
          target={{ customAmount: open }}
          contactEmail={contactEmail}
          returnFocus={payRef}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
