import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { listLeads, type Lead } from '#client/api/leads-client.ts';
import { InfiniteTable, type LoadTablePage } from '#client/ui/infinite-table.tsx';
import { useLeadColumns } from '#client/entities/lead/lead-columns.tsx';

/** The customer's leads (applications), newest first; each number opens the lead. */
export function CustomerLeadsTab({
  accountIndex,
  accountCode,
}: {
  accountIndex: number;
  accountCode: string;
}) {
  const { t } = useTranslation('customers');
  const loadPage = useCallback<LoadTablePage<Lead>>(
    async (input, signal) => {
      const page = await listLeads(
        accountIndex,
        // The keyset token goes back whole (it carries the order and the total).
        { pageToken: input.pageToken ?? undefined, accountCode },
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, accountCode],
  );
  const columns = useLeadColumns(accountIndex, {
    number: t('leads.number'),
    product: t('leads.product'),
    status: t('leads.status'),
    premium: t('leads.premium'),
    created: t('leads.created'),
  });
  return (
    <InfiniteTable
      label={t('leads.label')}
      columns={Object.values(columns)}
      minWidth="40rem"
      height={320}
      loadPage={loadPage}
      rowKey={(l) => String(l.id)}
      emptyMessage={t('empty.leads')}
    />
  );
}
