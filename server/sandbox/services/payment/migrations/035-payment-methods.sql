-- The paymentservice's payment methods, bank accounts and which method each policy pays with
-- (issue 18). Every row carries tenant_id; customers and policies are named by their codes, as
-- the other services name them. Nothing here is ever deleted: a policy's earlier methods stay as
-- its history (valid_to set), and a method or bank account stays for the payments made with it.

CREATE TABLE bank_accounts (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  account_code text NOT NULL,
  -- Normalised: no spaces, upper case. Answers show it masked (common/payment-methods.ts).
  iban text NOT NULL CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  bic text,
  bank_name text,
  holder_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
-- A customer's IBAN once: a second creation of it is a 409, not a twin.
CREATE UNIQUE INDEX bank_accounts_account_iban_idx ON bank_accounts (tenant_id, account_code, iban);
CREATE INDEX bank_accounts_tenant_id_idx ON bank_accounts (tenant_id, id);

CREATE TABLE payment_methods (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  account_code text NOT NULL,
  type text NOT NULL CHECK (type IN ('sepa', 'invoice', 'card')),
  bank_account_id integer REFERENCES bank_accounts(id),
  holder_name text,
  mandate_reference text,
  mandate_signed_at date,
  -- The card stand-in: never a full card number, only what a receipt shows.
  card_brand text,
  card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$'),
  card_expiry_month integer CHECK (card_expiry_month BETWEEN 1 AND 12),
  card_expiry_year integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  CHECK ((type = 'sepa') = (bank_account_id IS NOT NULL AND mandate_reference IS NOT NULL
                            AND mandate_signed_at IS NOT NULL)),
  CHECK ((type = 'card') = (card_last4 IS NOT NULL AND card_brand IS NOT NULL
                            AND card_expiry_month IS NOT NULL AND card_expiry_year IS NOT NULL))
);
-- A mandate reference names one mandate of the creditor (the tenant).
CREATE UNIQUE INDEX payment_methods_mandate_idx ON payment_methods (tenant_id, mandate_reference)
  WHERE mandate_reference IS NOT NULL;
CREATE INDEX payment_methods_account_idx ON payment_methods (tenant_id, account_code, id);

CREATE TABLE policy_payment_methods (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  policy_code text NOT NULL,
  payment_method_id integer NOT NULL REFERENCES payment_methods(id),
  valid_from timestamptz NOT NULL,
  -- NULL: the policy's current method. A change closes it and opens the next.
  valid_to timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
-- One current method per policy, also when two changes arrive at once.
CREATE UNIQUE INDEX policy_payment_methods_current_idx ON policy_payment_methods (tenant_id, policy_code)
  WHERE valid_to IS NULL;
CREATE INDEX policy_payment_methods_policy_idx ON policy_payment_methods (tenant_id, policy_code, valid_from DESC, id DESC);
