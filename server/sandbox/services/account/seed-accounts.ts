import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';

/**
 * Customers and partners of the demo world. Generated from fixed lists with index arithmetic, so
 * that every fresh data directory holds the same people (tests and screenshots can rely on names),
 * while codes stay random like every other code of the sandbox.
 */

const FIRST_FEMALE = [
  'Anna',
  'Lena',
  'Marie',
  'Sophie',
  'Laura',
  'Julia',
  'Katharina',
  'Hannah',
  'Lea',
  'Johanna',
  'Clara',
  'Emma',
  'Greta',
  'Ida',
  'Frieda',
  'Paula',
  'Ursula',
  'Monika',
];
const FIRST_MALE = [
  'Lukas',
  'Jonas',
  'Felix',
  'Maximilian',
  'Paul',
  'Leon',
  'Elias',
  'Moritz',
  'Tobias',
  'Florian',
  'Matthias',
  'Stefan',
  'Jürgen',
  'Klaus',
  'Uwe',
  'Henrik',
  'Bernd',
  'Jan',
];
const LAST = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Schäfer',
  'Koch',
  'Bauer',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Braun',
  'Krüger',
  'Hofmann',
  'Hartmann',
  'Lange',
  'Schmitt',
  'Werner',
  'Krause',
  'Meier',
  'Lehmann',
  'Köhler',
  'Herrmann',
  'Walter',
  'König',
];
const CITIES: [string, string][] = [
  ['10115', 'Berlin'],
  ['20095', 'Hamburg'],
  ['80331', 'München'],
  ['50667', 'Köln'],
  ['60311', 'Frankfurt am Main'],
  ['70173', 'Stuttgart'],
  ['40213', 'Düsseldorf'],
  ['04109', 'Leipzig'],
  ['44135', 'Dortmund'],
  ['45127', 'Essen'],
  ['28195', 'Bremen'],
  ['01067', 'Dresden'],
  ['30159', 'Hannover'],
  ['90402', 'Nürnberg'],
  ['47051', 'Duisburg'],
  ['24103', 'Kiel'],
  ['18055', 'Rostock'],
  ['93047', 'Regensburg'],
  ['79098', 'Freiburg'],
];
const STREETS = [
  'Hauptstraße',
  'Schulstraße',
  'Gartenstraße',
  'Bahnhofstraße',
  'Dorfstraße',
  'Bergstraße',
  'Birkenweg',
  'Lindenstraße',
  'Kirchstraße',
  'Waldstraße',
  'Ringstraße',
  'Schillerstraße',
  'Goethestraße',
  'Am Markt',
  'Mühlenweg',
  'Rosenweg',
];
const COMPANY_STEMS = [
  'Nordwind',
  'Alpenblick',
  'Rheintal',
  'Elbufer',
  'Sonnenhof',
  'Hansa',
  'Kornblume',
  'Eichenwald',
  'Lichtblick',
  'Bergquelle',
  'Stadtwerk',
  'Feldmark',
];
const COMPANY_KINDS = [
  'Logistik GmbH',
  'Bäckerei KG',
  'Bau AG',
  'IT-Service GmbH',
  'Gartenbau e.K.',
  'Handels GmbH',
  'Transport GmbH & Co. KG',
];
const TITLES = ['', '', '', '', '', 'Dr.', '', '', 'Prof.', '', 'Dr. med.'];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

export interface SeedAccount {
  type: 'person' | 'org';
  title: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  email: string;
  gender: 'male' | 'female' | 'unspecified';
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  birthDate: string | null;
  phone: string | null;
}

const ascii = (s: string) =>
  s
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The i-th generated customer; every seventh is an organisation. */
export function generateAccount(i: number, domain: string): SeedAccount {
  const [zipCode, city] = pick(CITIES, i * 5 + 3);
  const street = pick(STREETS, i * 3 + 1);
  const houseNumber = `${1 + ((i * 37) % 120)}${i % 13 === 0 ? 'a' : ''}`;
  // Mobile numbers of one German network: valid for the phone check of the edit form.
  const phone = i % 4 === 3 ? null : `+49151${String(10000000 + i * 7919).slice(-8)}`;
  if (i % 7 === 6) {
    const companyName = `${pick(COMPANY_STEMS, i)} ${pick(COMPANY_KINDS, i * 3)}`;
    return {
      type: 'org',
      title: '',
      firstName: '',
      lastName: '',
      companyName,
      email: `info${i}@${ascii(pick(COMPANY_STEMS, i))}.${domain}`,
      gender: 'unspecified',
      street,
      houseNumber,
      zipCode,
      city,
      birthDate: null,
      phone,
    };
  }
  const female = i % 2 === 0;
  const firstName = female ? pick(FIRST_FEMALE, i * 7) : pick(FIRST_MALE, i * 5);
  const lastName = pick(LAST, i * 11 + Math.floor(i / LAST.length));
  const year = 1940 + ((i * 17) % 65);
  const month = 1 + ((i * 5) % 12);
  const day = 1 + ((i * 13) % 28);
  return {
    type: 'person',
    title: pick(TITLES, i),
    firstName,
    lastName,
    companyName: null,
    email: `${ascii(firstName)}.${ascii(lastName)}${i}@${domain}`,
    gender: i % 23 === 5 ? 'unspecified' : female ? 'female' : 'male',
    street,
    houseNumber,
    zipCode: zipCode ?? '10115',
    city: city ?? 'Berlin',
    birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    phone,
  };
}

const PARTNER_KINDS = [
  'Versicherungsmakler GmbH',
  'Kfz-Werkstatt',
  'Gutachterbüro',
  'Finanzberatung KG',
];

/**
 * Customers were created before any seeded policy was sold to them (the first on 2024-01-02,
 * seed-policies.ts): the n-th newest a day before this for every n, so the customer list keeps
 * its newest-first order and every customer's date precedes their policies' (issue 15 point 17).
 * Moved with the clock as the whole demo world is (platform/seed-time.ts).
 */
const CUSTOMERS_UNTIL = Date.UTC(2024, 0, 1, 9, 0, 0);

const TAGS = [
  ['broker', 'Makler', 'Independent brokers who sell our products'],
  ['agent', 'Vertreter', 'Tied agents of the company'],
  ['workshop', 'Werkstatt', 'Partner workshops for motor claims'],
  ['assessor', 'Gutachter', 'Loss assessors'],
] as const;

async function seedTenant(
  tx: Queryable,
  tenantId: number,
  accounts: number,
  partners: number,
  customersUntilMs: number,
) {
  const domain = tenantId % 2 === 0 ? 'example.org' : 'example.com';
  const list = Array.from({ length: accounts }, (_, i) => generateAccount(i, domain));
  await tx.query(
    `INSERT INTO accounts (tenant_id, code, account_number, type, title, first_name, last_name,
                           company_name, email, gender, street, house_number, zip_code, city,
                           birth_date, phone, created_at, updated_at)
     SELECT $1, c, 'K-' || (100000 + n), ty, ti, fn, ln, cn, em, ge, st, hn, zc, ci, bd::date, ph,
            $17::timestamptz - make_interval(days => n), $17::timestamptz - make_interval(days => n)
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
                   $14::text[], $15::text[], $16::text[])
         AS x(c, n, ty, ti, fn, ln, cn, em, ge, st, hn, zc, ci, bd, ph)`,
    [
      tenantId,
      list.map(() => newCode('acc')),
      list.map((_, i) => accounts - i),
      list.map((a) => a.type),
      list.map((a) => a.title),
      list.map((a) => a.firstName),
      list.map((a) => a.lastName),
      list.map((a) => a.companyName),
      list.map((a) => a.email),
      list.map((a) => a.gender),
      list.map((a) => a.street),
      list.map((a) => a.houseNumber),
      list.map((a) => a.zipCode),
      list.map((a) => a.city),
      list.map((a) => a.birthDate),
      list.map((a) => a.phone),
      new Date(customersUntilMs).toISOString(),
    ],
  );

  const types = await tx.query<{ id: number; slug: string }>(
    `INSERT INTO partner_types (tenant_id, code, name, slug)
     VALUES ($1, $2, 'Person', 'person'), ($1, $3, 'Organisation', 'organization')
     RETURNING id, slug`,
    [tenantId, newCode('ptt'), newCode('ptt')],
  );
  const typeId = (slug: string) => types.find((t) => t.slug === slug)?.id;
  const tags = await tx.query<{ id: number; slug: string }>(
    `INSERT INTO partner_tags (tenant_id, code, slug, label, description)
     SELECT $1, c, s, l, d FROM unnest($2::text[], $3::text[], $4::text[], $5::text[])
       AS x(c, s, l, d) RETURNING id, slug`,
    [
      tenantId,
      TAGS.map(() => newCode('tag')),
      TAGS.map((t) => t[0]),
      TAGS.map((t) => t[1]),
      TAGS.map((t) => t[2]),
    ],
  );
  // Distinct names (issue 15 point 17): a name already given moves on to the next surname or
  // company stem, so two partners of a workspace are never mistaken for each other.
  const given = new Set<string>();
  const partnerRows = Array.from({ length: partners }, (_, i) => {
    const org = i % 3 === 0;
    const nameAt = (k: number) =>
      org
        ? `${pick(COMPANY_STEMS, i * 5 + 1 + k)} ${pick(PARTNER_KINDS, i)}`
        : `${pick(i % 2 ? FIRST_MALE : FIRST_FEMALE, i * 3)} ${pick(LAST, i * 7 + 2 + k)}`;
    let k = 0;
    while (given.has(nameAt(k)) && k < 1000) k += 1;
    const name = given.has(nameAt(k)) ? `${nameAt(0)} ${i}` : nameAt(k);
    given.add(name);
    return { name, type: typeId(org ? 'organization' : 'person'), number: `P-${20000 + i}` };
  });
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO partners (tenant_id, code, display_name, partner_type_id, partner_number)
     SELECT $1, c, n, t, pn FROM unnest($2::text[], $3::text[], $4::int[], $5::text[])
       WITH ORDINALITY AS x(c, n, t, pn, o) ORDER BY o RETURNING id`,
    [
      tenantId,
      partnerRows.map(() => newCode('ptn')),
      partnerRows.map((p) => p.name),
      partnerRows.map((p) => p.type),
      partnerRows.map((p) => p.number),
    ],
  );
  // Every partner gets one tag round robin, every fifth a second one: more than ten per tag.
  const links: [number, number][] = [];
  inserted.forEach((p, i) => {
    const first = tags[i % tags.length];
    const second = tags[(i + 1) % tags.length];
    if (first) links.push([p.id, first.id]);
    if (i % 5 === 0 && second) links.push([p.id, second.id]);
  });
  await tx.query(
    `INSERT INTO partner_tag_links (tenant_id, partner_id, tag_id)
     SELECT $1, unnest($2::int[]), unnest($3::int[])`,
    [tenantId, links.map((l) => l[0]), links.map((l) => l[1])],
  );
}

const COUNTS: Record<string, { accounts: number; partners: number }> = {
  demo: { accounts: 300, partners: 80 },
  nordlicht: { accounts: 12, partners: 6 },
};

/**
 * Seeds customers and partners into the demo workspaces that have none yet, so that a data
 * directory seeded before migration 004 gets them too; a workspace with accounts is left alone.
 */
export async function seedAccounts(db: Db, logger: Logger, clock: Clock): Promise<boolean> {
  const customersUntilMs = CUSTOMERS_UNTIL + seedShiftMs(clock.now());
  const started = Date.now();
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724314)');
    const tenants = await tx.query<{ id: number; slug: string }>(
      `SELECT t.id, t.slug FROM tenants t
        WHERE t.slug = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.tenant_id = t.id)
          AND NOT EXISTS (SELECT 1 FROM partners p WHERE p.tenant_id = t.id)`,
      [Object.keys(COUNTS)],
    );
    for (const t of tenants) {
      const counts = COUNTS[t.slug];
      if (counts) {
        await seedTenant(tx, t.id, counts.accounts, counts.partners, customersUntilMs);
      }
    }
    return tenants.length > 0;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox customers and partners seeded');
  return seeded;
}
