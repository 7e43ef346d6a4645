import type { ProductFieldKind, ProductFieldType } from '#common/products.ts';

/**
 * The catalogue of insured object types and their default product fields (spec section 7,
 * `GET /insured-object-types`, `GET /default-product-fields`). The spec names no way to edit
 * them, so they are reference data shared by every tenant, like the field types: fixed ids, no
 * tenant rows, nothing one tenant does can change what another sees. Creating an insured object
 * of a type copies the type's default fields into it.
 */

export interface DefaultFieldDef {
  name: string;
  label: string;
  type: ProductFieldType;
  kind?: ProductFieldKind;
  isRequired?: boolean;
  minimum?: number;
  maximum?: number;
}
interface TypeDef {
  id: number;
  name: string;
  label: string;
  fields: DefaultFieldDef[];
}

const birthDate: DefaultFieldDef = {
  name: 'birthDate',
  label: 'Date of birth',
  type: 'date',
  isRequired: true,
};

const TYPES: TypeDef[] = [
  {
    id: 1,
    name: 'vehicle',
    label: 'Vehicle',
    fields: [
      {
        name: 'vehicleValue',
        label: 'Vehicle value',
        type: 'number',
        isRequired: true,
        minimum: 1000,
        maximum: 250000,
      },
      {
        name: 'vehicleType',
        label: 'Vehicle type',
        type: 'string',
        kind: 'vehicleType',
        isRequired: true,
      },
      { name: 'firstRegistration', label: 'First registration', type: 'date' },
      { name: 'vehicleUsage', label: 'Vehicle usage', type: 'string', kind: 'vehicleUsage' },
      {
        name: 'licensePlateRegion',
        label: 'Licence plate region',
        type: 'string',
        kind: 'licensePlateRegion',
      },
    ],
  },
  {
    id: 2,
    name: 'driver',
    label: 'Driver',
    fields: [
      birthDate,
      {
        name: 'sfClass',
        label: 'No-claims class',
        type: 'number',
        kind: 'sfClass',
        minimum: 0,
        maximum: 35,
      },
      { name: 'zipCode', label: 'Postcode', type: 'string' },
    ],
  },
  {
    id: 3,
    name: 'person',
    label: 'Insured person',
    fields: [
      birthDate,
      {
        name: 'occupationClass',
        label: 'Occupation class',
        type: 'number',
        isRequired: true,
        minimum: 1,
        maximum: 3,
      },
    ],
  },
  {
    id: 4,
    name: 'mobile-device',
    label: 'Mobile device',
    fields: [
      {
        name: 'purchasePrice',
        label: 'Purchase price',
        type: 'number',
        isRequired: true,
        minimum: 50,
        maximum: 3000,
      },
      { name: 'brand', label: 'Brand', type: 'string', isRequired: true },
      { name: 'purchaseDate', label: 'Date of purchase', type: 'date', isRequired: true },
    ],
  },
  {
    id: 5,
    name: 'device',
    label: 'Device',
    fields: [
      {
        name: 'price',
        label: 'Price',
        type: 'number',
        isRequired: true,
        minimum: 50,
        maximum: 10000,
      },
      { name: 'category', label: 'Appliance category', type: 'string' },
    ],
  },
  {
    id: 6,
    name: 'household',
    label: 'Household',
    fields: [
      {
        name: 'livingArea',
        label: 'Living area (m²)',
        type: 'number',
        isRequired: true,
        minimum: 10,
        maximum: 1000,
      },
      { name: 'zipCode', label: 'Postcode', type: 'string', isRequired: true },
      {
        name: 'sumInsured',
        label: 'Sum insured',
        type: 'number',
        isRequired: true,
        minimum: 5000,
        maximum: 500000,
      },
    ],
  },
  {
    id: 7,
    name: 'traveller',
    label: 'Traveller',
    fields: [
      birthDate,
      {
        name: 'travelDays',
        label: 'Days of travel',
        type: 'number',
        isRequired: true,
        minimum: 1,
        maximum: 365,
      },
    ],
  },
  {
    id: 8,
    name: 'trip',
    label: 'Trip',
    fields: [
      { name: 'destination', label: 'Destination', type: 'string', isRequired: true },
      {
        name: 'tripCost',
        label: 'Trip cost',
        type: 'number',
        isRequired: true,
        minimum: 0,
        maximum: 50000,
      },
    ],
  },
  {
    id: 9,
    name: 'bicycle',
    label: 'Bicycle',
    fields: [
      { name: 'frameNumber', label: 'Frame number', type: 'string', isRequired: true },
      {
        name: 'price',
        label: 'Price',
        type: 'number',
        isRequired: true,
        minimum: 100,
        maximum: 15000,
      },
      { name: 'isEbike', label: 'E-bike', type: 'boolean' },
    ],
  },
  { id: 10, name: 'custom', label: 'Custom object', fields: [] },
];

export const insuredObjectTypes = TYPES.map(({ id, name, label }) => ({
  id,
  code: `iot_${name.replace(/-/g, '_')}`,
  name,
  label,
}));

export type InsuredObjectType = (typeof insuredObjectTypes)[number];

/** The default fields of a type by name, for the demo products built on the catalogue. */
export function typeFields(name: string): DefaultFieldDef[] {
  const type = TYPES.find((t) => t.name === name);
  if (!type) throw new Error(`no insured object type ${name}`);
  return type.fields;
}

export function insuredObjectType(id: number): InsuredObjectType | undefined {
  return insuredObjectTypes.find((t) => t.id === id);
}

/** Default fields in their order; ids are the type's id times 100 plus the position. */
export const defaultProductFields = TYPES.flatMap((type) =>
  type.fields.map((field, index) => ({
    id: type.id * 100 + index + 1,
    code: `dpf_${type.name.replace(/-/g, '_')}_${field.name}`,
    insuredObjectTypeId: type.id,
    name: field.name,
    label: field.label,
    type: field.type,
    kind: field.kind ?? null,
    isRequired: field.isRequired ?? false,
    minimum: field.minimum ?? null,
    maximum: field.maximum ?? null,
    defaultValue: null,
    order: index + 1,
  })),
);
