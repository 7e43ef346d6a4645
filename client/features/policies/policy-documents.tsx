import { useTranslation } from 'react-i18next';
import { documentQueries } from '#client/api/documents-queries.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';
import { RangedDocuments } from '#client/entities/document/ranged-documents.tsx';
import { PageSection } from '#client/ui/page-section.tsx';

/**
 * The policy page's documents (issue 19): the schedule the document service issues for each
 * version in force ("Versicherungsschein POL-…, Version n") and every other document naming the
 * policy (its claims' files), newest first, each with where it came from; a file name downloads
 * the file (a schedule is printed on its first download); "Issue a document…" prints the schedule
 * again or another policy template. No uploads: the document service signs uploads for claims
 * alone, so a file goes with its claim. A user without the documents permission sees why there
 * is nothing instead of an error.
 */
export function PolicyDocumentsSection({
  policyCode,
  policyNumber,
}: {
  policyCode: string;
  policyNumber: string;
}) {
  const { t } = useTranslation('documents');
  const { accountIndex, canViewDocuments } = usePolicyAbilities();
  return (
    <PageSection id="policy-documents" title={t('title')}>
      {canViewDocuments ? (
        <RangedDocuments
          accountIndex={accountIndex}
          queryOf={(range) => documentQueries.ofPolicy(accountIndex, policyCode, range)}
          caption={t('policy.caption', { number: policyNumber })}
          empty={t('empty')}
          withSource
          issue={{ kind: 'policy', entityCode: policyCode }}
        />
      ) : (
        <p className="py-6 text-sm text-slate-700">{t('policy.not_allowed')}</p>
      )}
    </PageSection>
  );
}
