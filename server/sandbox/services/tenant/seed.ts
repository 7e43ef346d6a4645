import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { hashPassword } from '#server/sandbox/platform/crypto.ts';

export const DEMO_PASSWORD = 'Demo1234!';

/** Every role that opens the UI also reads its own tenant's data and settings on load. */
export const UI_BASE = [
  'ui.eis.view',
  'tenant-management.tenants.view',
  'tenant-management.settings.view',
];

/** Customer care books a customer's payment (issue 18). */
export const CARE_PAYMENTS = [
  'payment-management.payments.view',
  'payment-management.payments.create',
];

/** The finance role's rights beside the UI base (issue 18). */
export const FINANCE_PERMISSIONS = [
  'billing-management.*',
  'payment-management.*',
  'reporting.dashboards.view',
  'policy-management.policies.view',
  'account-management.accounts.view',
];

export const DEMO_ROLES: Record<
  string,
  {
    label: string;
    /** The label (the role's name) in the users' languages (issue 16). */
    labels: Record<'de' | 'en' | 'pl', string>;
    description: string;
    /** The description in the users' languages (issue 16: shown in the user's language). */
    descriptionLabels: Record<'de' | 'en' | 'pl', string>;
    permissions: string[];
  }
> = {
  admin: {
    label: 'Administrator',
    labels: { de: 'Administrator', en: 'Administrator', pl: 'Administrator' },
    description: 'Everything',
    descriptionLabels: { de: 'Alles', en: 'Everything', pl: 'Wszystko' },
    permissions: ['*.*.*'],
  },
  'product-manager': {
    label: 'Product manager',
    labels: { de: 'Produktmanager', en: 'Product manager', pl: 'Menedżer produktu' },
    description: 'Designs products and reads policies',
    descriptionLabels: {
      de: 'Gestaltet Produkte und liest Verträge',
      en: 'Designs products and reads policies',
      pl: 'Projektuje produkty i odczytuje polisy',
    },
    permissions: [
      ...UI_BASE,
      'policy-management.products.*',
      'policy-management.product-versions.*',
      'policy-management.premium-formulas.*',
      'policy-management.policies.view',
      'document-management.templates.*',
      'translation-management.translations.*',
      'reporting.dashboards.view',
    ],
  },
  'customer-care': {
    label: 'Customer care',
    labels: { de: 'Kundenbetreuung', en: 'Customer care', pl: 'Obsługa klienta' },
    description: 'Looks after customers, policies and claims',
    descriptionLabels: {
      de: 'Betreut Kunden, Verträge und Schäden',
      en: 'Looks after customers, policies and claims',
      pl: 'Obsługuje klientów, polisy i szkody',
    },
    permissions: [
      ...UI_BASE,
      'policy-management.policies.*',
      'policy-management.leads.*',
      'policy-management.products.view',
      'account-management.accounts.*',
      'claim-management.claims.*',
      'document-management.documents.*',
      'billing-management.invoices.view',
      'payment-management.payment-methods.*',
      'payment-management.bank-accounts.*',
      'partner-management.partners.view',
      ...CARE_PAYMENTS,
    ],
  },
  finance: {
    label: 'Finance',
    labels: { de: 'Finanzen', en: 'Finance', pl: 'Finanse' },
    description: 'Invoices, payments and the finance reports',
    descriptionLabels: {
      de: 'Rechnungen, Zahlungen und die Finanzberichte',
      en: 'Invoices, payments and the finance reports',
      pl: 'Faktury, płatności i raporty finansowe',
    },
    permissions: [...UI_BASE, ...FINANCE_PERMISSIONS],
  },
  'show-only': {
    label: 'Show only',
    labels: { de: 'Nur lesen', en: 'Show only', pl: 'Tylko odczyt' },
    description: 'Reads everything, changes nothing',
    descriptionLabels: {
      de: 'Liest alles, ändert nichts',
      en: 'Reads everything, changes nothing',
      pl: 'Odczytuje wszystko, niczego nie zmienia',
    },
    permissions: [
      ...UI_BASE,
      'tenant-management.users.view',
      'identity-management.roles.view',
      'policy-management.products.view',
      'policy-management.policies.view',
      'policy-management.leads.view',
      'account-management.accounts.view',
      'claim-management.claims.view',
      'partner-management.partners.view',
      'billing-management.invoices.view',
      'payment-management.payment-methods.view',
      'payment-management.bank-accounts.view',
      'document-management.documents.view',
      'reporting.dashboards.view',
    ],
  },
  noui: {
    label: 'API only',
    labels: { de: 'Nur API', en: 'API only', pl: 'Tylko API' },
    description: 'Machine access without the user interface',
    descriptionLabels: {
      de: 'Maschinenzugriff ohne Benutzeroberfläche',
      en: 'Machine access without the user interface',
      pl: 'Dostęp maszynowy bez interfejsu użytkownika',
    },
    permissions: ['policy-management.policies.view'],
  },
};

interface SeedUser {
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  mustChangePassword?: boolean;
}

/** The finance demo user (issue 18). */
export const FINANCE_USER = {
  email: 'finance@demo.test',
  firstName: 'Fiona',
  lastName: 'Finanz',
  role: 'finance',
} as const satisfies SeedUser;

const DEMO_USERS: SeedUser[] = [
  { email: 'admin@demo.test', firstName: 'Ada', lastName: 'Admin', role: 'admin' },
  { email: 'manager@demo.test', firstName: 'Max', lastName: 'Manager', role: 'product-manager' },
  { email: 'care@demo.test', firstName: 'Clara', lastName: 'Care', role: 'customer-care' },
  { email: 'viewer@demo.test', firstName: 'Vera', lastName: 'Viewer', role: 'show-only' },
  { email: 'noui@demo.test', firstName: 'Noah', lastName: 'Noui', role: 'noui' },
  FINANCE_USER,
  {
    email: 'newpass@demo.test',
    firstName: 'Nina',
    lastName: 'Neumann',
    role: 'customer-care',
    mustChangePassword: true,
  },
  ...(
    [
      ['Jonas', 'Becker', 'customer-care'],
      ['Lea', 'Fischer', 'customer-care'],
      ['Paul', 'Hoffmann', 'product-manager'],
      ['Mia', 'Schneider', 'show-only'],
      ['Felix', 'Wagner', 'customer-care'],
      ['Emma', 'Weber', 'show-only'],
      ['Lukas', 'Schulz', 'customer-care'],
      ['Hannah', 'Koch', 'product-manager'],
      ['Elias', 'Richter', 'show-only'],
      ['Sophie', 'Klein', 'customer-care'],
      ['Noah', 'Wolf', 'show-only'],
      ['Lina', 'Schröder', 'customer-care'],
    ] as const
  ).map(([firstName, lastName, role]) => ({
    email: `${firstName}.${lastName}`.toLowerCase().replace('ö', 'oe') + '@demo.test',
    firstName,
    lastName,
    role,
  })),
];

interface SeedWorkspace {
  slug: string;
  name: string;
  isDefault: boolean;
  isDisabled: boolean;
  general: [string, string, string, string, string];
  branding: { name: string; mainColor: string };
}

interface SeedGroup {
  name: string;
  workspaces: SeedWorkspace[];
  roles: string[];
  users: SeedUser[];
  settings: Record<string, unknown>;
}

const DEMO_GENERAL: SeedWorkspace['general'] = [
  'Europe/Berlin',
  'de',
  'EUR',
  'hh:mm:ss',
  'DD.MM.YYYY',
];
const DEMO_BRANDING = { name: 'Demo Versicherung AG', mainColor: '#1dc4e9' };

const GROUPS: SeedGroup[] = [
  {
    name: 'Demo Versicherung AG',
    workspaces: [
      {
        slug: 'demo',
        name: 'Demo Versicherung AG',
        isDefault: true,
        isDisabled: false,
        general: DEMO_GENERAL,
        branding: DEMO_BRANDING,
      },
      {
        slug: 'demo-sandbox',
        name: 'Demo Sandbox',
        isDefault: false,
        isDisabled: false,
        general: DEMO_GENERAL,
        branding: DEMO_BRANDING,
      },
      {
        slug: 'demo-archive',
        name: 'Demo Archiv',
        isDefault: false,
        isDisabled: true,
        general: DEMO_GENERAL,
        branding: DEMO_BRANDING,
      },
    ],
    roles: Object.keys(DEMO_ROLES),
    users: DEMO_USERS,
    settings: {
      dashboardAlert: '',
      brokermanagement_version: 'v2',
      chatWidget: { enabled: false, webhookUrl: '', version: '' },
    },
  },
  {
    name: 'Nordlicht Makler GmbH',
    workspaces: [
      {
        slug: 'nordlicht',
        name: 'Nordlicht Makler GmbH',
        isDefault: true,
        isDisabled: false,
        general: ['Europe/Berlin', 'de', 'EUR', 'HH:mm', 'DD.MM.YYYY'],
        branding: { name: 'Nordlicht Makler GmbH', mainColor: '#0b5394' },
      },
    ],
    roles: ['admin', 'show-only'],
    users: [
      { email: 'admin@nordlicht.test', firstName: 'Nils', lastName: 'Nordmann', role: 'admin' },
    ],
    settings: { brokermanagement_version: 'v1' },
  },
];

export function newUserCode(): string {
  return `usr_${randomBytes(8).toString('hex')}`;
}

async function seedGroup(tx: Queryable, group: SeedGroup, passwordHash: string): Promise<void> {
  const [g] = await tx.query<{ id: number }>(
    'INSERT INTO tenant_groups (name) VALUES ($1) RETURNING id',
    [group.name],
  );
  if (!g) throw new Error('tenant group not created');
  const roleIds = new Map<string, number>(); // `${tenantId}:${code}`
  const tenantIds: number[] = [];
  for (const ws of group.workspaces) {
    const [t] = await tx.query<{ id: number }>(
      `INSERT INTO tenants (tenant_group_id, name, slug, is_default, is_disabled)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [g.id, ws.name, ws.slug, ws.isDefault, ws.isDisabled],
    );
    if (!t) throw new Error('tenant not created');
    tenantIds.push(t.id);
    await tx.query(
      `INSERT INTO general_settings (tenant_id, time_zone, language, currency, format_hours, format_dates)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [t.id, ...ws.general],
    );
    await tx.query(
      'INSERT INTO branding (tenant_id, name, address, logo, main_color) VALUES ($1, $2, NULL, NULL, $3)',
      [t.id, ws.branding.name, ws.branding.mainColor],
    );
    const keys = Object.keys(group.settings);
    await tx.query(
      `INSERT INTO settings (tenant_id, key, value)
       SELECT $1, k, v FROM unnest($2::text[], $3::jsonb[]) AS s(k, v)`,
      [t.id, keys, keys.map((k) => JSON.stringify(group.settings[k]))],
    );
    for (const code of group.roles) {
      const role = DEMO_ROLES[code];
      if (!role) throw new Error(`unknown role ${code}`);
      const [r] = await tx.query<{ id: number }>(
        `INSERT INTO roles (tenant_id, code, label, label_labels, description, description_labels)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          t.id,
          code,
          role.label,
          JSON.stringify(role.labels),
          role.description,
          JSON.stringify(role.descriptionLabels),
        ],
      );
      if (!r) throw new Error('role not created');
      roleIds.set(`${t.id}:${code}`, r.id);
      await tx.query(
        `INSERT INTO role_permissions (tenant_id, role_id, permission)
         SELECT $1, $2, unnest($3::text[])`,
        [t.id, r.id, role.permissions],
      );
    }
  }
  const homeTenant = tenantIds[0];
  if (homeTenant === undefined) throw new Error('group without workspace');
  for (const user of group.users) {
    const [u] = await tx.query<{ id: number }>(
      `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, password_hash, first_name,
                          last_name, status, must_change_password)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9) RETURNING id`,
      [
        g.id,
        homeTenant,
        newUserCode(),
        randomUUID(),
        user.email,
        passwordHash,
        user.firstName,
        user.lastName,
        user.mustChangePassword ?? false,
      ],
    );
    if (!u) throw new Error('user not created');
    for (const tenantId of tenantIds) {
      await tx.query('INSERT INTO tenant_users (tenant_id, user_id) VALUES ($1, $2)', [
        tenantId,
        u.id,
      ]);
      await tx.query('INSERT INTO user_roles (tenant_id, user_id, role_id) VALUES ($1, $2, $3)', [
        tenantId,
        u.id,
        roleIds.get(`${tenantId}:${user.role}`),
      ]);
    }
  }
}

/** Seeds the demo world of docs/contracts.md, only into a database without tenants. */
export async function seedDemoWorld(db: Db, logger: Logger): Promise<boolean> {
  const started = Date.now();
  // Hashing once keeps seeding fast; every demo user shares the demo password anyway.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724312)');
    const [existing] = await tx.query('SELECT 1 FROM tenants LIMIT 1');
    if (existing) return false;
    for (const group of GROUPS) await seedGroup(tx, group, passwordHash);
    return true;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox demo world seeded');
  return seeded;
}
