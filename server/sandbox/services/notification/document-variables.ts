import type { VariableRecord } from './template-variables.ts';

/**
 * What each kind of document template may use (issue 19; the document service's doc-templates
 * are checked against it at save as the e-mails are): the spec's document kinds (sepa, policy,
 * invoice, terms, static, ipid, mediation, protocol, rules, link) and the claim's letters. Money
 * is in integer cents (`{{ policy.premiumCents | money }}` writes `488,72 €`), days are
 * YYYY-MM-DD (`{{ policy.startDate | day }}` writes `01.01.2026`).
 */

/** Every document may name its workspace, the day it was issued and its own title. */
const COMMON: VariableRecord = {
  tenant: { name: 'text' },
  issuedAt: 'date',
  title: 'text',
};

const ADDRESS = { street: 'text', zipCode: 'text', city: 'text' } as const;
const HOLDER = { name: 'text', email: 'text', ...ADDRESS } as const;

const POLICY = {
  number: 'text',
  productName: 'text',
  status: 'text',
  version: 'number',
  startDate: 'date',
  endDate: 'date',
  holder: HOLDER,
  premiumCents: 'number',
  premiumFrequency: 'text',
  premiumItems: [{ name: 'text', amountCents: 'number' }],
  insuredObjects: [{ name: 'text', label: 'text', summary: 'text' }],
} as const;

const PRODUCT = { product: { name: 'text', slug: 'text', version: 'number' } } as const;

/**
 * The product information sheet (IPID) of one product version: what the insurance service
 * exports of it (productVersionFacts), the insured objects with their fields and the premium
 * formulas as the cover's parts (`unit`: day, week, month, quarter, year, oneTimePayment).
 */
const IPID = {
  product: {
    name: 'text',
    slug: 'text',
    category: 'text',
    version: 'number',
    description: 'text',
    contractDurationDays: 'number',
    insuredObjects: [
      { name: 'text', label: 'text', fields: [{ name: 'text', label: 'text', type: 'text' }] },
    ],
    coverages: [{ name: 'text', group: 'text', unit: 'text' }],
  },
} as const;

/**
 * Static documents (terms, privacy notice, complaints rules; decision 020) belong to no record:
 * they are published once for everybody, so they may name the workspace and nothing else.
 */
const NO_RECORD = {} as const;

const KINDS = {
  policy: { policy: POLICY },
  sepa: {
    policy: { number: 'text', holder: HOLDER },
    mandate: { reference: 'text', iban: 'text', accountHolder: 'text', signedAt: 'date' },
  },
  invoice: {
    invoice: {
      number: 'text',
      type: 'text',
      createdAt: 'date',
      dueDate: 'date',
      periodFrom: 'date',
      periodTo: 'date',
      currency: 'text',
      netCents: 'number',
      taxCents: 'number',
      totalCents: 'number',
      // How the policy pays (`sepa`, `invoice`, `card`; empty without one), a mandate's reference.
      paymentMethod: 'text',
      mandateReference: 'text',
      // `amountCents` is the line's gross amount; `taxRate` in percent (19, 7.25).
      positions: [
        {
          name: 'text',
          quantity: 'number',
          unit: 'text',
          unitPriceCents: 'number',
          taxRate: 'number',
          netCents: 'number',
          taxCents: 'number',
          amountCents: 'number',
        },
      ],
    },
    policy: { number: 'text', productName: 'text', holder: HOLDER },
  },
  claim: {
    claim: {
      number: 'text',
      title: 'text',
      status: 'text',
      dateOfLoss: 'date',
      reportedAt: 'date',
      description: 'text',
      claimant: { name: 'text', ...ADDRESS },
    },
    policy: { number: 'text', productName: 'text' },
  },
  ipid: IPID,
  terms: NO_RECORD,
  rules: NO_RECORD,
  static: NO_RECORD,
  mediation: NO_RECORD,
  protocol: PRODUCT,
  link: PRODUCT,
} as const satisfies Record<string, VariableRecord>;

export type DocumentKind = keyof typeof KINDS;
export const DOCUMENT_KINDS = Object.keys(KINDS) as DocumentKind[];
export const isDocumentKind = (kind: string): kind is DocumentKind => Object.hasOwn(KINDS, kind);

/** The variables a document template of `kind` may use, the common ones included. */
export const documentVariablesOf = (kind: DocumentKind): VariableRecord => ({
  ...COMMON,
  ...KINDS[kind],
});

/** A layout's header and footer may use the common ones only: they frame every kind. */
export const DOCUMENT_LAYOUT_VARIABLES: VariableRecord = COMMON;

const HOLDER_SAMPLE = {
  name: 'Jürgen Wałęsa-Öztürk',
  email: 'juergen@example.com',
  street: 'Große Straße 12',
  zipCode: '20095',
  city: 'Hamburg',
};
const POLICY_SAMPLE = {
  number: 'POL-001995',
  productName: 'Kfz-Versicherung',
  status: 'ACTIVE',
  version: 1,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  holder: HOLDER_SAMPLE,
  premiumCents: 48872,
  premiumFrequency: 'yearly',
  premiumItems: [
    { name: 'Haftpflicht', amountCents: 31240 },
    { name: 'Teilkasko', amountCents: 9810 },
    { name: 'Versicherungsteuer', amountCents: 7822 },
  ],
  insuredObjects: [
    { name: 'vehicle', label: 'Fahrzeug', summary: 'VW Golf, HH-ŁÓ 1995' },
    { name: 'driver', label: 'Fahrer', summary: 'Małgorzata Müller' },
  ],
};
const PRODUCT_SAMPLE = { product: { name: 'Kfz-Versicherung', slug: 'car', version: 3 } };
const IPID_SAMPLE = {
  product: {
    ...PRODUCT_SAMPLE.product,
    category: 'car',
    description: 'Tarif 2026 mit Schutzbrief',
    contractDurationDays: 365,
    insuredObjects: [
      {
        name: 'vehicle',
        label: 'Fahrzeug',
        fields: [
          { name: 'licensePlate', label: 'Kennzeichen', type: 'string' },
          { name: 'firstRegistration', label: 'Erstzulassung', type: 'date' },
        ],
      },
      {
        name: 'driver',
        label: 'Fahrer',
        fields: [{ name: 'age', label: 'Alter', type: 'number' }],
      },
    ],
    coverages: [
      { name: 'Haftpflicht', group: 'Grundschutz', unit: 'year' },
      { name: 'Teilkasko', group: 'Zusatzschutz', unit: 'year' },
    ],
  },
};

const SAMPLES: Record<DocumentKind, Record<string, unknown>> = {
  policy: { policy: POLICY_SAMPLE },
  sepa: {
    policy: { number: POLICY_SAMPLE.number, holder: HOLDER_SAMPLE },
    mandate: {
      reference: 'MND-001995',
      iban: 'DE02 1203 0000 0000 2020 51',
      accountHolder: HOLDER_SAMPLE.name,
      signedAt: '2025-12-20',
    },
  },
  invoice: {
    invoice: {
      number: 'INV-2026-004711',
      type: 'recurring',
      createdAt: '2026-01-01',
      dueDate: '2026-01-15',
      periodFrom: '2026-01-01',
      periodTo: '2026-12-31',
      currency: 'EUR',
      netCents: 41050,
      taxCents: 7800,
      totalCents: 48850,
      paymentMethod: 'sepa',
      mandateReference: 'MND-001995',
      positions: [
        {
          name: 'Haftpflicht',
          quantity: 1,
          unit: 'piece',
          unitPriceCents: 31240,
          taxRate: 19,
          netCents: 31240,
          taxCents: 5936,
          amountCents: 37176,
        },
        {
          name: 'Teilkasko',
          quantity: 1,
          unit: 'piece',
          unitPriceCents: 9810,
          taxRate: 19,
          netCents: 9810,
          taxCents: 1864,
          amountCents: 11674,
        },
      ],
    },
    policy: {
      number: POLICY_SAMPLE.number,
      productName: 'Kfz-Versicherung',
      holder: HOLDER_SAMPLE,
    },
  },
  claim: {
    claim: {
      number: 'CLM-000042',
      title: 'Glasschaden',
      status: 'open',
      dateOfLoss: '2026-03-02',
      reportedAt: '2026-03-03',
      description: 'Steinschlag auf der A7 bei Łódź-Süd',
      claimant: {
        name: HOLDER_SAMPLE.name,
        street: 'Große Straße 12',
        zipCode: '20095',
        city: 'Hamburg',
      },
    },
    policy: { number: POLICY_SAMPLE.number, productName: 'Kfz-Versicherung' },
  },
  ipid: IPID_SAMPLE,
  terms: {},
  rules: {},
  static: {},
  mediation: {},
  protocol: PRODUCT_SAMPLE,
  link: PRODUCT_SAMPLE,
};

/** A believable record of `kind`: what the preview renders. */
export const documentSampleOf = (
  kind: DocumentKind,
  common: { tenantName: string; title: string; issuedAt: string },
): Record<string, unknown> => ({
  tenant: { name: common.tenantName },
  issuedAt: common.issuedAt,
  title: common.title,
  ...SAMPLES[kind],
});
