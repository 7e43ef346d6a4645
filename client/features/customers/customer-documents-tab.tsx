import { useTranslation } from 'react-i18next';
import { documentQueries } from '#client/api/documents-queries.ts';
import { RangedDocuments } from '#client/entities/document/ranged-documents.tsx';

/**
 * A customer's documents: those of their claims and policies and of their leads, newest first,
 * within the documents time filter; a file name downloads the file. The first 100 (decided: a
 * customer with more narrows the period).
 */
export function CustomerDocumentsTab({
  accountIndex,
  accountCode,
  name,
}: {
  accountIndex: number;
  accountCode: string;
  name: string;
}) {
  const { t } = useTranslation('documents');
  return (
    <RangedDocuments
      accountIndex={accountIndex}
      queryOf={(range) => documentQueries.ofCustomer(accountIndex, accountCode, range)}
      caption={t('customer.caption', { name })}
      empty={t('customer.empty')}
    />
  );
}
