-- Payment orders (DESIGN.md sections 5 and 6; spec section 3, Payment order).
-- A row is written by POST /api/ccavenue-initiate before the browser is sent to the gateway
-- (it replaces the old site's /api/payment-notification call), and decided once by
-- POST /api/ccavenue-handle: initiated -> success | failure | aborted | invalid, never again.
-- Portable between SQLite and PostgreSQL: TEXT keys, integer cents, RFC 3339 UTC text times.
-- No foreign key to ticket_plans / sponsor_packages: `conference seed` deletes and re-inserts
-- those, and an order keeps what was bought (item_title, amount_cents) as it was then.
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,       -- 'ORD' + unix millis + 6 random characters, made by the server
    kind TEXT NOT NULL CHECK (kind IN ('plan', 'custom', 'sponsor')),
    item_id TEXT NOT NULL,           -- ticket plan id, sponsor package id, or 'custom-payment'
    item_title TEXT NOT NULL,        -- what was bought, as shown then, e.g. 'Presenter Virtual'
    custom_amount TEXT,              -- custom payments: the amount as entered, before the 6% tax
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),  -- what the gateway is asked to charge
    currency TEXT NOT NULL,          -- ISO code, 'USD'
    status TEXT NOT NULL DEFAULT 'initiated'
        CHECK (status IN ('initiated', 'success', 'failure', 'aborted', 'invalid')),
    -- The payer, as entered (spec section 3, Registration/payment form); '' when not given.
    billing_name TEXT NOT NULL,
    billing_email TEXT NOT NULL,
    billing_tel TEXT NOT NULL DEFAULT '',
    billing_address TEXT NOT NULL DEFAULT '',
    billing_city TEXT NOT NULL DEFAULT '',
    billing_state TEXT NOT NULL DEFAULT '',
    billing_zip TEXT NOT NULL DEFAULT '',
    billing_country TEXT NOT NULL DEFAULT '',
    -- The gateway's answer (encResp), stored when the order is decided; NULL before.
    gateway_status TEXT,             -- order_status as sent: Success, Failure, Aborted, Invalid, ...
    tracking_id TEXT,
    bank_ref_no TEXT,
    payment_mode TEXT,
    card_name TEXT,
    status_code TEXT,
    status_message TEXT,
    failure_message TEXT,
    trans_date TEXT,                 -- as the gateway writes it
    created TEXT NOT NULL,           -- RFC 3339 UTC
    decided_at TEXT                  -- RFC 3339 UTC; NULL while initiated
);

CREATE INDEX orders_created ON orders (created);
CREATE INDEX orders_status ON orders (status);
