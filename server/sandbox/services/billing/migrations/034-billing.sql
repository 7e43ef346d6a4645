-- Billing and payments (issue 18, docs/contracts.md "Billing and payments (issue 18)"): invoices
-- computed from the policies' premiums, their items and status history, payments booked against
-- them and the idempotency keys of the writes that take one. Money is integer cents (bigint)
-- everywhere; nothing that carries money is ever deleted (a reversal is a status).

-- The currencies an amount may be in: ISO reference data, the same for every workspace.
CREATE TABLE currencies (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z]{3}$'),
  name text NOT NULL,
  symbol text NOT NULL,
  minor_units smallint NOT NULL CHECK (minor_units BETWEEN 0 AND 3)
);
INSERT INTO currencies (code, name, symbol, minor_units) VALUES
  ('EUR', 'Euro', '€', 2),
  ('CHF', 'Swiss franc', 'CHF', 2),
  ('PLN', 'Polish złoty', 'zł', 2),
  ('USD', 'US dollar', '$', 2),
  ('GBP', 'Pound sterling', '£', 2);

-- The insurance tax of a product in basis points (19 % = 1900); a product without a row is taxed
-- at the default 19 %.
CREATE TABLE product_tax_rates (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  tax_rate_bp integer NOT NULL CHECK (tax_rate_bp BETWEEN 0 AND 10000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  PRIMARY KEY (tenant_id, product_id)
);

-- The last invoice number given per workspace and year (INV-YYYY-NNNNNN).
CREATE TABLE invoice_counters (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  year integer NOT NULL,
  last_number integer NOT NULL CHECK (last_number >= 0),
  PRIMARY KEY (tenant_id, year)
);

CREATE TABLE invoices (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  invoice_number text NOT NULL,
  policy_code text,
  account_number text,
  account_code text,
  product_slug text,
  type text NOT NULL CHECK (type IN ('initial', 'recurring', 'correction', 'estimated',
                                     'penalty', 'other', 'withdraw', 'final')),
  status text NOT NULL CHECK (status IN ('open', 'paid', 'partially-paid', 'refunded')),
  net_amount bigint NOT NULL,
  tax_amount bigint NOT NULL,
  credit_amount bigint NOT NULL DEFAULT 0 CHECK (credit_amount >= 0),
  gross_amount bigint NOT NULL,
  paid_amount bigint NOT NULL DEFAULT 0,
  currency text NOT NULL REFERENCES currencies(code),
  due_date date NOT NULL,
  billing_interval_from date,
  billing_interval_to date,
  -- The billing run's key of a computed invoice (policy, type, interval): it is made once.
  billing_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  CHECK (gross_amount = net_amount + tax_amount),
  CHECK (paid_amount >= 0 AND (gross_amount <= 0 OR paid_amount <= gross_amount)),
  CHECK (billing_interval_to IS NULL OR billing_interval_from <= billing_interval_to),
  UNIQUE (tenant_id, invoice_number),
  UNIQUE (tenant_id, billing_key)
);
CREATE INDEX invoices_policy_idx ON invoices (tenant_id, policy_code, due_date);
CREATE INDEX invoices_due_idx ON invoices (tenant_id, due_date DESC, id DESC);
CREATE INDEX invoices_account_idx ON invoices (tenant_id, account_number);

CREATE TABLE invoice_items (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  invoice_id integer NOT NULL REFERENCES invoices(id),
  position integer NOT NULL CHECK (position >= 0),
  name text NOT NULL,
  quantity integer NOT NULL CHECK (quantity >= 0),
  price_per_unit bigint NOT NULL,
  tax_rate_bp integer NOT NULL CHECK (tax_rate_bp BETWEEN 0 AND 10000),
  net_amount bigint NOT NULL,
  tax_amount bigint NOT NULL,
  gross_amount bigint NOT NULL,
  unit text NOT NULL DEFAULT 'piece',
  CHECK (gross_amount = net_amount + tax_amount),
  UNIQUE (invoice_id, position)
);

CREATE TABLE invoice_statuses (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  invoice_id integer NOT NULL REFERENCES invoices(id),
  status text NOT NULL CHECK (status IN ('open', 'paid', 'partially-paid', 'refunded')),
  at timestamptz NOT NULL,
  by text NOT NULL,
  by_name text
);
CREATE INDEX invoice_statuses_invoice_idx ON invoice_statuses (invoice_id, id);

CREATE TABLE payments (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL REFERENCES currencies(code),
  method text NOT NULL CHECK (method IN ('sepa', 'invoice', 'card', 'bank-transfer')),
  reference text NOT NULL DEFAULT '',
  policy_code text,
  account_number text,
  credit_amount bigint NOT NULL DEFAULT 0 CHECK (credit_amount >= 0 AND credit_amount <= amount),
  status text NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'reversed')),
  booked_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  created_by_name text
);
CREATE INDEX payments_tenant_idx ON payments (tenant_id, booked_at DESC, id DESC);
CREATE INDEX payments_policy_idx ON payments (tenant_id, policy_code);

-- Which invoices a payment paid, and how much of each.
CREATE TABLE payment_allocations (
  payment_id integer NOT NULL REFERENCES payments(id),
  invoice_id integer NOT NULL REFERENCES invoices(id),
  amount bigint NOT NULL CHECK (amount > 0),
  tenant_id integer NOT NULL REFERENCES tenants(id),
  id serial UNIQUE,
  PRIMARY KEY (payment_id, invoice_id)
);
CREATE INDEX payment_allocations_invoice_idx ON payment_allocations (invoice_id);

-- A write taken once per key: the first request's body (its hash) and what it made. The unique
-- key is the guard, inside the write's transaction, so that two processes on one database book
-- once too.
CREATE TABLE idempotency_keys (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  scope text NOT NULL,
  request_hash text NOT NULL,
  resource_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  UNIQUE (tenant_id, key)
);
