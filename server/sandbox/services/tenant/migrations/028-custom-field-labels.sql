-- Custom-field labels per language (issue 15 point 16, issue 16). The labels live in each field of
-- custom_schemas.fields (jsonb), so the table needs no column; this gives the seed's de/en/pl
-- labels to the demo schemas of data directories seeded before the seed stored them. A field an
-- admin relabelled (its label no longer the seeded one) or already translated is left as it is.
-- The texts are the seed's (seed-administration.ts, seed-claims.ts);
-- custom-field-labels.test.ts checks that they agree.

UPDATE custom_schemas s
   SET fields = (
     SELECT jsonb_agg(
              CASE WHEN x.labels IS NULL OR f ? 'labels' OR f->>'label' IS DISTINCT FROM x.label
                   THEN f
                   ELSE f || jsonb_build_object('labels', x.labels::jsonb)
              END ORDER BY e.ord)
       FROM jsonb_array_elements(s.fields) WITH ORDINALITY AS e(f, ord)
       LEFT JOIN (VALUES
         ('organization-extra', 'registrationNumber', 'Registration number', '{"de":"Handelsregisternummer","en":"Registration number","pl":"Numer KRS"}'),
         ('organization-extra', 'employees', 'Employees', '{"de":"Mitarbeitende","en":"Employees","pl":"Liczba pracowników"}'),
         ('organization-extra', 'foundedOn', 'Founded on', '{"de":"Gegründet am","en":"Founded on","pl":"Data założenia"}'),
         ('claim-custom', 'damageLocation', 'Damage location', '{"de":"Schadenort","en":"Damage location","pl":"Miejsce szkody"}'),
         ('claim-custom', 'policeReportNumber', 'Police report number', '{"de":"Aktenzeichen der Polizei","en":"Police report number","pl":"Numer zgłoszenia policyjnego"}'),
         ('claim-custom', 'estimatedDamage', 'Estimated damage (EUR)', '{"de":"Geschätzter Schaden (EUR)","en":"Estimated damage (EUR)","pl":"Szacowana szkoda (EUR)"}')
       ) AS x(code, name, label, labels)
         ON x.code = s.code AND x.name = f->>'name')
 WHERE s.code IN ('organization-extra', 'claim-custom')
   AND s.product_code IS NULL
   AND jsonb_array_length(s.fields) > 0;
