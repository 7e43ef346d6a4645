import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets `document.title` to '{page} | {product}' as the spec asks. */
export function usePageTitle(page: string): void {
  const { t } = useTranslation('common');
  const product = t('product.name');
  useEffect(() => {
    document.title = page ? `${page} | ${product}` : product;
  }, [page, product]);
}
