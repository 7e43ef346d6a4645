-- Reversing a booked payment (issue 18, docs/contracts.md "Payment reversal"): the payment stays,
-- with status 'reversed' and who (by name), when and why; its allocations stay as the record of
-- what it had paid, and the invoices' paid amounts and statuses go back. Each invoice it had paid
-- gets a status entry carrying the reason.

ALTER TABLE payments
  ADD COLUMN reversed_at timestamptz,
  ADD COLUMN reversed_by text,
  ADD COLUMN reversed_by_name text,
  ADD COLUMN reversal_reason text,
  ADD CONSTRAINT payments_reversal_check CHECK (
    (status = 'booked' AND reversed_at IS NULL AND reversal_reason IS NULL)
    OR (status = 'reversed' AND reversed_at IS NOT NULL AND reversed_by IS NOT NULL
        AND length(reversal_reason) BETWEEN 1 AND 500)
  );

-- Why the status changed, when a person said so (a reversal's reason); null for bookings and runs.
ALTER TABLE invoice_statuses ADD COLUMN reason text CHECK (reason IS NULL OR length(reason) <= 500);
