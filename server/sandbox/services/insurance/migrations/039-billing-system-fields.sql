-- Issue 18: the 'default' insured object of a product version gets the billing system fields
-- (spec section 3), so that a policy can be billed monthly, quarterly or half-yearly instead of
-- yearly: billingFrequencyUnit (kind billingFrequency) and recurringBillingDay (1 to 28), both
-- optional. New versions get them from DEFAULT_OBJECT_FIELDS (insurance-product-routes.ts); this
-- adds them to the default objects of data directories made before, after the object's last
-- field, where a product manager has not added a field of that name already. Policies stored
-- without the values stay billed yearly. The code follows the object and the name, so that it
-- is the same on every run and unique; written by `system`.
INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                            is_required, minimum, maximum, "order", created_by, updated_by)
SELECT o.tenant_id,
       'pfi_' || substr(md5('039:' || o.id || ':' || f.name), 1, 16),
       o.id, f.name, f.label, f.type, f.kind, false, f.minimum, f.maximum,
       coalesce((SELECT max(pf."order") FROM product_fields pf WHERE pf.insured_object_id = o.id), 0)
         + f.position,
       'system', 'system'
  FROM insured_objects o
 CROSS JOIN (VALUES
   (1, 'billingFrequencyUnit', 'Billing frequency', 'string', 'billingFrequency',
    NULL::double precision, NULL::double precision),
   (2, 'recurringBillingDay', 'Recurring billing day', 'number', NULL, 1, 28)
 ) AS f(position, name, label, type, kind, minimum, maximum)
 WHERE o.name = 'default'
   AND NOT EXISTS (SELECT 1 FROM product_fields pf
                    WHERE pf.insured_object_id = o.id AND pf.name = f.name);
