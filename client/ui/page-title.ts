import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setDocumentTitle } from './document-title.ts';

/** Sets `document.title` to '{page} | {product}' as the spec asks. */
export function usePageTitle(page: string): void {
  const { t } = useTranslation('common');
  const product = t('product.name');
  useEffect(() => setDocumentTitle(page, product), [page, product]);
}
