-- The premium in force, stored on the policy (issue 14): the list sorts and pages by it through
-- an index instead of working it out for every filtered policy on every page. The amount holds
-- from premium_since to premium_until (NULL: without that bound); a row whose stretch does not
-- hold the clock's time is worked out again before a premium-sorted list (policy-premium.ts).
-- premium_since 'infinity' marks a row never worked out.
ALTER TABLE policies ADD COLUMN premium_in_force numeric NOT NULL DEFAULT -1;
ALTER TABLE policies ADD COLUMN premium_since timestamptz DEFAULT 'infinity';
ALTER TABLE policies ADD COLUMN premium_until timestamptz;

-- Existing policies, at the database's time (the same statement as storePremiumInForce).
UPDATE policies p SET (premium_in_force, premium_since, premium_until) = (
  SELECT coalesce(max(c.total), -1), max(c.since), min(c.until)
    FROM (SELECT
      (SELECT (t.premium->>'grandTotal')::numeric FROM timeslices t
        WHERE t.policy_version_id = v.id
        ORDER BY (t."from" <= now() AND (t."to" IS NULL OR now() < t."to")) DESC,
                 CASE WHEN now() < (SELECT min(f."from") FROM timeslices f
                                     WHERE f.policy_version_id = v.id) THEN t."from" END ASC,
                 t."from" DESC
        LIMIT 1) AS total,
      (SELECT max(b.at) FROM timeslices t, LATERAL (VALUES (t."from"), (t."to")) AS b(at)
        WHERE t.policy_version_id = v.id AND b.at <= now()) AS since,
      (SELECT min(b.at) FROM timeslices t, LATERAL (VALUES (t."from"), (t."to")) AS b(at)
        WHERE t.policy_version_id = v.id AND b.at > now()) AS until
      FROM policy_versions v WHERE v.policy_id = p.id AND v.is_current) c);

-- The premium order's keyset, and the two bounds the refresh looks rows up by.
CREATE INDEX policies_tenant_premium_idx ON policies (tenant_id, premium_in_force, id);
CREATE INDEX policies_tenant_premium_since_idx ON policies (tenant_id, premium_since);
CREATE INDEX policies_tenant_premium_until_idx ON policies (tenant_id, premium_until);
