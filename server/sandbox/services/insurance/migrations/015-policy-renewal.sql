-- Policies run out (issue 15, point 6): a policy whose term has ended either renews for the next
-- term or expires. How often it renews is kept on the policy: from the product's
-- policyRenewalFrequency field when the product has one, otherwise as sold (the demo seed gives
-- a share of its policies a yearly renewal). `none`: the policy expires at the end of its term.
ALTER TABLE policies DROP CONSTRAINT policies_status_check;
ALTER TABLE policies ADD CONSTRAINT policies_status_check
  CHECK (status IN ('ACTIVE', 'WITHDRAWN', 'TERMINATED', 'SUSPENDED', 'EXPIRED'));
ALTER TABLE policies ADD COLUMN renewal_frequency text NOT NULL DEFAULT 'none'
  CHECK (renewal_frequency IN ('none', 'monthly', 'quarterly', 'halfYearly', 'yearly'));
