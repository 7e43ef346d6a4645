-- Issue 16: a role's name per language ({"de": …, "en": …, "pl": …}); `label` stays the name shown
-- where a language has none. The tenant service's table, altered here after 027 (which added the
-- description's translations) so that a fresh database applies the two in order.
ALTER TABLE roles ADD COLUMN label_labels jsonb NOT NULL DEFAULT '{}';

-- Data directories seeded before the seed carried translations: the demo roles as seeded (code and
-- English texts unchanged, no translations entered since) get the seed's German and Polish texts.
-- A role an administrator renamed or translated keeps what they entered. A fresh database has no
-- roles yet here; its seed writes the same texts (services/tenant/seed.ts, DEMO_ROLES).
UPDATE roles r
   SET label_labels = t.names::jsonb,
       description_labels = CASE WHEN r.description_labels = '{}'::jsonb AND r.description = t.description
                                 THEN t.descriptions::jsonb ELSE r.description_labels END
  FROM (VALUES
    ('admin', 'Administrator', 'Everything',
     '{"de":"Administrator","en":"Administrator","pl":"Administrator"}',
     '{"de":"Alles","en":"Everything","pl":"Wszystko"}'),
    ('product-manager', 'Product manager', 'Designs products and reads policies',
     '{"de":"Produktmanager","en":"Product manager","pl":"Menedżer produktu"}',
     '{"de":"Gestaltet Produkte und liest Verträge","en":"Designs products and reads policies","pl":"Projektuje produkty i odczytuje polisy"}'),
    ('customer-care', 'Customer care', 'Looks after customers, policies and claims',
     '{"de":"Kundenbetreuung","en":"Customer care","pl":"Obsługa klienta"}',
     '{"de":"Betreut Kunden, Verträge und Schäden","en":"Looks after customers, policies and claims","pl":"Obsługuje klientów, polisy i szkody"}'),
    ('finance', 'Finance', 'Invoices, payments and the finance reports',
     '{"de":"Finanzen","en":"Finance","pl":"Finanse"}',
     '{"de":"Rechnungen, Zahlungen und die Finanzberichte","en":"Invoices, payments and the finance reports","pl":"Faktury, płatności i raporty finansowe"}'),
    ('show-only', 'Show only', 'Reads everything, changes nothing',
     '{"de":"Nur lesen","en":"Show only","pl":"Tylko odczyt"}',
     '{"de":"Liest alles, ändert nichts","en":"Reads everything, changes nothing","pl":"Odczytuje wszystko, niczego nie zmienia"}'),
    ('noui', 'API only', 'Machine access without the user interface',
     '{"de":"Nur API","en":"API only","pl":"Tylko API"}',
     '{"de":"Maschinenzugriff ohne Benutzeroberfläche","en":"Machine access without the user interface","pl":"Dostęp maszynowy bez interfejsu użytkownika"}')
  ) AS t(code, label, description, names, descriptions)
 WHERE r.code = t.code AND r.label = t.label AND r.label_labels = '{}'::jsonb;
