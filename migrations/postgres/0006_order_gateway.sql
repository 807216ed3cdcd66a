-- Which payment mode and gateway created each order (DESIGN.md section 6: "Each order records
-- the mode that created it; an answer from another gateway never decides it").
-- NULL on orders created before this migration: no gateway answer decides those; organisers
-- reconcile them in CCAvenue's dashboard.
ALTER TABLE orders ADD COLUMN payments_mode TEXT;  -- 'live' or 'test'
ALTER TABLE orders ADD COLUMN gateway TEXT;        -- the gateway URL the browser was sent to
