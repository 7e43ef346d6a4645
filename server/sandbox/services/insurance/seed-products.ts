import type { Logger } from 'pino';
import type { ProductCategory, ProductFieldType, ProductVersionStatus } from '#common/products.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { createVersion } from './insurance-product-routes.ts';
import { typeFields } from './insured-object-types.ts';
import { demoProductTexts } from './seed-product-texts.ts';
import { LABEL_LANGUAGES } from '#common/name-labels.ts';
import {
  insertFormulas,
  seedProductExtras,
  seedProductLanguages,
  seedVersionExtras,
  type SeedExtras,
  type SeedFormula,
} from './seed-product-extras.ts';

/**
 * Demo products of the insurance suite: one per main category, each with versions in several
 * statuses, insured objects with typed fields and premium formulas that evaluate over those fields
 * (the integration test evaluates every one of them with common/expression).
 */

interface SeedField {
  name: string;
  label: string;
  type: ProductFieldType;
  kind?: string;
  isRequired?: boolean;
  minimum?: number;
  maximum?: number;
}
interface SeedObject {
  name: string;
  label: string;
  fields: SeedField[];
}
export interface SeedProduct {
  name: string;
  slug: string;
  category: ProductCategory;
  statuses: ProductVersionStatus[];
  objects: SeedObject[];
  formulas: SeedFormula[];
  extras?: SeedExtras;
  /** Translation files by language (the demo tenant's: every object, field and premium item). */
  languages?: { language: string; texts: Record<string, string> }[];
}

export const DEMO_PRODUCTS: SeedProduct[] = [
  {
    name: 'Kfz-Versicherung Komfort',
    slug: 'car-comfort',
    category: 'car',
    statuses: ['archived', 'passive', 'active', 'draft'],
    objects: [
      {
        name: 'vehicle',
        label: 'Vehicle',
        fields: [
          // Value, type and first registration as the catalogue has them.
          ...typeFields('vehicle').slice(0, 3),
          { name: 'isCommercial', label: 'Commercial use', type: 'boolean' },
        ],
      },
      {
        name: 'driver',
        label: 'Main driver',
        fields: typeFields('driver'),
      },
    ],
    formulas: [
      {
        group: 'Liability',
        name: 'Base premium',
        expression: 'vehicle.vehicleValue * 0.012',
        unit: 'year',
        variableName: 'basePremium',
      },
      {
        group: 'Liability',
        name: 'Young driver surcharge',
        expression: 'yearsBetween(driver.birthDate, policyStartDate) < 25 ? basePremium * 0.3 : 0',
        unit: 'year',
      },
      {
        group: 'Discounts',
        name: 'No-claims discount',
        expression: '-basePremium * min(coalesce(driver.sfClass, 0), 20) * 0.02',
        unit: 'year',
      },
      {
        group: 'Extras',
        name: 'Commercial use',
        expression: 'if(vehicle.isCommercial, 120, 0)',
        unit: 'year',
      },
    ],
    extras: {
      status: 'active',
      // Regional factor by postcode area (a row per area, * for the rest of the country).
      factors: [
        {
          name: 'region',
          keyColumns: ['zipCode'],
          rows: [
            { keys: ['10115'], value: 1.15 },
            { keys: ['20095'], value: 1.1 },
            { keys: ['50667'], value: 1.08 },
            { keys: ['80331'], value: 1.12 },
            { keys: ['01067'], value: 0.95 },
            { keys: ['*'], value: 1 },
          ],
        },
      ],
      ranges: [
        {
          name: 'driverAge',
          bands: [
            { from: 16, to: 25, value: 1.25 },
            { from: 25, to: 65, value: 1 },
            { from: 65, to: null, value: 1.15 },
          ],
        },
      ],
      formulas: [
        {
          group: 'Liability',
          name: 'Region and age',
          expression:
            "basePremium * (factor('region', driver.zipCode) * range('driverAge', yearsBetween(driver.birthDate, policyStartDate)) - 1)",
          unit: 'year',
        },
      ],
      funnel: {
        name: 'Kfz online',
        steps: [
          {
            title: 'Fahrzeug',
            fields: [
              { insuredObject: 'vehicle', field: 'vehicleValue' },
              { insuredObject: 'vehicle', field: 'vehicleType' },
            ],
          },
          {
            title: 'Fahrer',
            fields: [
              { insuredObject: 'driver', field: 'birthDate' },
              { insuredObject: 'driver', field: 'zipCode' },
            ],
          },
          { title: 'Beginn', fields: [{ insuredObject: 'default', field: 'policyStartDate' }] },
        ],
      },
    },
  },
  {
    name: 'Reiseschutz Welt',
    slug: 'travel-world',
    category: 'travel',
    statuses: ['passive', 'active'],
    objects: [
      {
        name: 'traveller',
        label: 'Traveller',
        fields: typeFields('traveller'),
      },
      {
        name: 'trip',
        label: 'Trip',
        fields: typeFields('trip'),
      },
    ],
    formulas: [
      {
        group: 'Cancellation',
        name: 'Cancellation cover',
        expression: 'trip.tripCost * 0.04',
        unit: 'oneTimePayment',
      },
      {
        group: 'Health',
        name: 'Travel health cover',
        expression:
          'traveller.travelDays * (yearsBetween(traveller.birthDate, policyStartDate) >= 65 ? 1.2 : 0.5)',
        unit: 'oneTimePayment',
      },
    ],
  },
  {
    name: 'Handyschutz Plus',
    slug: 'device-protect',
    category: 'device',
    statuses: ['archived', 'active', 'draft'],
    objects: [
      {
        name: 'mobile-device',
        label: 'Mobile device',
        fields: [
          ...typeFields('mobile-device'),
          { name: 'theftCover', label: 'Cover theft', type: 'boolean' },
        ],
      },
    ],
    formulas: [
      {
        group: 'Device',
        name: 'Damage cover',
        expression: 'round(mobile_device.purchasePrice * 0.008, 2)',
        unit: 'month',
        variableName: 'damage',
      },
      {
        group: 'Device',
        name: 'Theft cover',
        expression: 'if(mobile_device.theftCover, max(2.5, damage * 0.4), 0)',
        unit: 'month',
      },
    ],
  },
  {
    name: 'Hausrat Zuhause',
    slug: 'home-contents',
    category: 'homeContents',
    statuses: ['active', 'draft'],
    objects: [
      {
        name: 'household',
        label: 'Household',
        fields: [
          ...typeFields('household'),
          { name: 'bicycleCover', label: 'Bicycles included', type: 'boolean' },
        ],
      },
    ],
    formulas: [
      {
        group: 'Contents',
        name: 'Contents premium',
        expression: 'household.sumInsured * 0.0011',
        unit: 'year',
      },
      {
        group: 'Extras',
        name: 'Bicycle cover',
        expression: 'if(household.bicycleCover, household.sumInsured * 0.0002, 0)',
        unit: 'year',
      },
    ],
  },
  {
    name: 'Unfallschutz Aktiv',
    slug: 'accident-active',
    category: 'accident',
    statuses: ['archived', 'passive', 'active'],
    objects: [
      {
        name: 'person',
        label: 'Insured person',
        fields: [
          ...typeFields('person'),
          {
            name: 'disabilitySum',
            label: 'Disability sum',
            type: 'number',
            isRequired: true,
            minimum: 10000,
            maximum: 1000000,
          },
        ],
      },
    ],
    formulas: [
      {
        group: 'Accident',
        name: 'Disability cover',
        expression: 'person.disabilitySum * 0.0009 * person.occupationClass',
        unit: 'year',
      },
    ],
  },
  {
    name: 'Rechtsschutz Privat',
    slug: 'legal-private',
    category: 'legalProtection',
    statuses: ['active', 'draft'],
    objects: [
      {
        name: 'coverage',
        label: 'Coverage',
        fields: [
          { name: 'privateCover', label: 'Private legal matters', type: 'boolean' },
          { name: 'trafficCover', label: 'Traffic legal matters', type: 'boolean' },
          {
            name: 'deductible',
            label: 'Deductible',
            type: 'number',
            isRequired: true,
            minimum: 0,
            maximum: 1000,
          },
        ],
      },
    ],
    formulas: [
      {
        group: 'Legal',
        name: 'Legal protection',
        expression:
          '(if(coverage.privateCover, 12, 0) + if(coverage.trafficCover, 6, 0) + 4) * (coverage.deductible >= 250 ? 0.9 : 1)',
        unit: 'month',
      },
    ],
  },
  {
    name: 'Geräteschutz Haushalt',
    slug: 'device-household',
    category: 'device',
    statuses: ['draft'],
    objects: [
      {
        name: 'device',
        label: 'Device',
        fields: [
          ...typeFields('device'),
          { name: 'age', label: 'Age in years', type: 'number', minimum: 0, maximum: 10 },
        ],
      },
    ],
    formulas: [
      {
        group: 'Device',
        name: 'Appliance cover',
        expression: 'device.price * 0.01 * (1 + coalesce(device.age, 0) * 0.1)',
        unit: 'year',
      },
    ],
  },
];

export const NORDLICHT_PRODUCTS: SeedProduct[] = [
  {
    name: 'Nordlicht Kfz Basis',
    slug: 'nordlicht-car',
    category: 'car',
    statuses: ['active', 'draft'],
    objects: [
      {
        name: 'vehicle',
        label: 'Fahrzeug',
        fields: [
          {
            name: 'vehicleValue',
            label: 'Fahrzeugwert',
            type: 'number',
            isRequired: true,
            minimum: 1000,
          },
        ],
      },
    ],
    formulas: [
      {
        group: 'Haftpflicht',
        name: 'Grundbeitrag',
        expression: 'vehicle.vehicleValue * 0.015',
        unit: 'year',
      },
    ],
  },
  {
    name: 'Nordlicht Reise',
    slug: 'nordlicht-travel',
    category: 'travel',
    statuses: ['active'],
    objects: [
      {
        name: 'trip',
        label: 'Reise',
        fields: [
          { name: 'tripCost', label: 'Reisepreis', type: 'number', isRequired: true, minimum: 0 },
        ],
      },
    ],
    formulas: [
      {
        group: 'Storno',
        name: 'Reiserücktritt',
        expression: 'trip.tripCost * 0.05',
        unit: 'oneTimePayment',
      },
    ],
  },
];

async function seedProduct(tx: Queryable, tenantId: number, product: SeedProduct): Promise<void> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO products (tenant_id, code, name, slug, category, insured_object_types)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      tenantId,
      newCode('prd'),
      product.name,
      product.slug,
      product.category,
      JSON.stringify(product.objects.map((o) => o.name)),
    ],
  );
  for (const [index, status] of product.statuses.entries()) {
    const version = await createVersion(
      tx,
      tenantId,
      row!.id,
      `Version ${index + 1}`,
      'system',
      status,
    );
    for (const object of product.objects) {
      const [inserted] = await tx.query<{ id: number }>(
        `INSERT INTO insured_objects (tenant_id, code, product_version_id, name, label)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [tenantId, newCode('ino'), version.id, object.name, object.label],
      );
      for (const [order, field] of object.fields.entries()) {
        await tx.query(
          `INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                                       is_required, minimum, maximum, "order")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            tenantId,
            newCode('pfi'),
            inserted!.id,
            field.name,
            field.label,
            field.type,
            field.kind ?? null,
            field.isRequired ?? false,
            field.minimum ?? null,
            field.maximum ?? null,
            order + 1,
          ],
        );
      }
    }
    await insertFormulas(tx, tenantId, version.id, product.formulas);
    if (product.extras?.status === status) {
      await seedVersionExtras(tx, tenantId, version.id, product.extras, product.formulas.length);
    }
  }
  if (product.extras) await seedProductExtras(tx, tenantId, row!.id, product.extras);
  if (product.languages) await seedProductLanguages(tx, tenantId, row!.id, product.languages);
}

/** A demo product with its translation file in every language the product speaks, all active. */
function withDemoTexts(product: SeedProduct): SeedProduct {
  return {
    ...product,
    languages: LABEL_LANGUAGES.map((language) => ({
      language,
      texts: demoProductTexts(product, language),
    })),
  };
}

/** Seeds each tenant's products once; a data directory seeded before this table existed gets them too. */
export async function seedProducts(db: Db, logger: Logger): Promise<boolean> {
  const started = Date.now();
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724314)');
    let any = false;
    for (const [slug, products] of [
      ['demo', DEMO_PRODUCTS],
      ['nordlicht', NORDLICHT_PRODUCTS],
    ] as const) {
      const [tenant] = await tx.query<{ id: number; has: boolean }>(
        'SELECT id, EXISTS (SELECT 1 FROM products p WHERE p.tenant_id = t.id) AS has FROM tenants t WHERE slug = $1',
        [slug],
      );
      if (!tenant || tenant.has) continue;
      for (const product of products) {
        await seedProduct(tx, tenant.id, slug === 'demo' ? withDemoTexts(product) : product);
      }
      any = true;
    }
    return any;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, 'sandbox products seeded');
  return seeded;
}
