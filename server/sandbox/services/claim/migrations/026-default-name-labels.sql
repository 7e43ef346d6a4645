-- The default labels of the claim and lead statuses and the claim partner roles, given once to the
-- rows that were seeded before the seed stored them (data directories from before this migration):
-- the seed used to fill them at every start. Rows an admin labelled (even `{}`) keep their labels.
-- The texts are the seed's (claim-workflow.ts, lead-workflow.ts, seed-claims.ts);
-- default-name-labels.test.ts checks that they agree.

UPDATE claim_statuses t SET labels = x.labels::jsonb
  FROM (VALUES
  ('open', '{"de":"Offen","en":"Open","pl":"Otwarta"}'),
  ('in-review', '{"de":"In Prüfung","en":"In review","pl":"W weryfikacji"}'),
  ('waiting-for-documents', '{"de":"Warten auf Unterlagen","en":"Waiting for documents","pl":"Oczekuje na dokumenty"}'),
  ('approved', '{"de":"Anerkannt","en":"Approved","pl":"Uznana"}'),
  ('settled', '{"de":"Reguliert","en":"Settled","pl":"Rozliczona"}'),
  ('rejected', '{"de":"Abgelehnt","en":"Rejected","pl":"Odrzucona"}'),
  ('closed', '{"de":"Geschlossen","en":"Closed","pl":"Zamknięta"}')
  ) AS x(slug, labels)
 WHERE t.slug = x.slug AND t.labels IS NULL;

UPDATE lead_statuses t SET labels = x.labels::jsonb
  FROM (VALUES
  ('new', '{"de":"Neu","en":"New","pl":"Nowy"}'),
  ('contacted', '{"de":"Kontaktiert","en":"Contacted","pl":"Po kontakcie"}'),
  ('quoted', '{"de":"Angeboten","en":"Quoted","pl":"Oferta wysłana"}'),
  ('approved', '{"de":"Angenommen","en":"Approved","pl":"Zaakceptowany"}'),
  ('declined', '{"de":"Abgelehnt","en":"Declined","pl":"Odrzucony"}'),
  ('converted', '{"de":"Umgewandelt","en":"Converted","pl":"Przekształcony"}')
  ) AS x(slug, labels)
 WHERE t.slug = x.slug AND t.labels IS NULL;

UPDATE claim_partner_roles t SET labels = x.labels::jsonb
  FROM (VALUES
  ('reporter', '{"de":"Meldende Person","en":"Reporter","pl":"Zgłaszający"}'),
  ('witness', '{"de":"Zeuge","en":"Witness","pl":"Świadek"}'),
  ('workshop', '{"de":"Werkstatt","en":"Workshop","pl":"Warsztat"}'),
  ('assessor', '{"de":"Gutachter","en":"Assessor","pl":"Rzeczoznawca"}'),
  ('lawyer', '{"de":"Anwalt","en":"Lawyer","pl":"Prawnik"}'),
  ('injured-party', '{"de":"Geschädigte Person","en":"Injured party","pl":"Poszkodowany"}')
  ) AS x(slug, labels)
 WHERE t.slug = x.slug AND t.labels IS NULL;

