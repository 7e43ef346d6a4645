import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Policy } from '#client/api/policies-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { productObjectTitle } from '#client/entities/product/product-texts.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';
import type { LoadState } from '#client/ui/load-state.ts';
import { insuredObjectsOf } from './settlement-form.ts';

/**
 * The insured objects of a claim's policy by their titles in the reader's language: the
 * product's translation (`<object>.label`, as the policy page shows them), else the title stored
 * with the policy, else the name itself. Without the product permission the stored titles serve.
 */
export function useObjectTitles(
  accountIndex: number,
  policy: LoadState<Policy | null>,
): (name: string) => string {
  const { language } = useTranslation().i18n;
  const { canViewProducts } = usePolicyAbilities();
  const current = policy.kind === 'ready' ? policy.value : null;
  const versionId = current?.productVersionId ?? null;
  const texts = useQuery({
    ...productQueries.texts(accountIndex, versionId ?? 0, language),
    enabled: canViewProducts && versionId !== null,
  });
  const productTexts = texts.data;
  return useCallback(
    (name: string) => {
      const translated = productTexts && productObjectTitle(productTexts, name);
      if (translated) return translated;
      const stored = current ? insuredObjectsOf(current).find((o) => o.value === name) : undefined;
      return stored?.label ?? name;
    },
    [productTexts, current],
  );
}
