import type {
  PremiumUnit,
  ProductCategory,
  ProductFieldKind,
  ProductFieldType,
} from '#common/products.ts';

/**
 * Locale keys for the service's values: the values are camelCase (homeContents, oneTimePayment),
 * locale leaves are snake_case (home_contents), so each value maps to its key here.
 */
const snake = (value: string) => value.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const categoryKey = (value: ProductCategory) =>
  `categories.${snake(value)}` as 'categories.car';
export const fieldKindKey = (value: ProductFieldKind) =>
  `field_kinds.${snake(value)}` as 'field_kinds.email';
export const fieldTypeKey = (value: ProductFieldType) => `field_types.${value}` as const;
export const unitKey = (value: PremiumUnit) => `units.${snake(value)}` as 'units.day';
