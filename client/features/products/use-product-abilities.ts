import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

export interface ProductAbilities {
  accountIndex: number;
  canCreateProduct: boolean;
  canCreateVersion: boolean;
  /** Status changes and the fields of a draft version. */
  canUpdateVersion: boolean;
  canCreateFormula: boolean;
  canUpdateFormula: boolean;
  canDeleteFormula: boolean;
  /** Booking funnels and product settings belong to the product. */
  canUpdateProduct: boolean;
  /** Product settings are tenant settings: the tenant settings right works as well. */
  canEditProductSettings: boolean;
  canViewTranslations: boolean;
  canCreateLanguage: boolean;
  canUpdateTranslations: boolean;
}

/**
 * What the signed-in account may do in product management: the current permission or its legacy
 * `eis.*` form, as the service accepts both. Hides buttons only; the service checks every call.
 */
export function useProductAbilities(): ProductAbilities {
  const { accountIndex, can, may: mayIn } = useAccountAccess();
  return useMemo(() => {
    const may = (resource: string, action: string, module = 'policy-management') =>
      mayIn(module, resource, action);
    return {
      accountIndex,
      canCreateProduct: may('products', 'create'),
      canCreateVersion: may('product-versions', 'create'),
      canUpdateVersion: may('product-versions', 'update'),
      canCreateFormula: may('premium-formulas', 'create'),
      canUpdateFormula: may('premium-formulas', 'update'),
      canDeleteFormula: may('premium-formulas', 'delete'),
      canUpdateProduct: may('products', 'update'),
      canEditProductSettings: may('products', 'update') || can('tenant-management.settings.update'),
      canViewTranslations: may('translations', 'view', 'translation-management'),
      canCreateLanguage: may('translations', 'create', 'translation-management'),
      canUpdateTranslations: may('translations', 'update', 'translation-management'),
    };
  }, [accountIndex, can, mayIn]);
}
