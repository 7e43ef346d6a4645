import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayNameOf } from '#client/api/accounts-client.ts';
import {
  downloadDocument,
  searchDocuments,
  type DocumentOwner,
  type SearchableDocument,
} from '#client/api/documents-client.ts';
import { documentQueries } from '#client/api/documents-queries.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { InfiniteTable, type TableColumn } from '#client/ui/infinite-table.tsx';
import { ListTitle, servicePages } from '#client/entities/list-view/list-page.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { useDebounced, useKeptSort } from '#client/ui/use-debounced.ts';
import { loadStateOf, type LoadState } from '#client/ui/load-state.ts';
import { KeywordField } from './keyword-field.tsx';
import { OwnerSelect } from './owner-select.tsx';

// Table column -> the service's order field.
const ORDER_FIELDS: Record<string, string> = { filename: 'filename', created: 'createdAt' };
// A document's entity type -> the name of its kind.
const KINDS = { ClaimDocument: 'claim_document', lead: 'lead', policy: 'policy' } as const;

/**
 * Document search (docs/contracts.md, "Document search"): the documents of one product (the spec
 * requires one), of the chosen owners or all of them ('*'), whose name or description holds the
 * words typed (keyword suggestions while typing); newest first, each downloadable. Every failure
 * of a call shows the danger alert with the generic error text.
 */
export default function DocumentsPage() {
  const { t } = useTranslation(['documents', 'common']);
  usePageTitle(t('search.title'));
  const { accountIndex } = useAccountAccess();
  const [productSlug, setProductSlug] = useState('');
  const [owners, setOwners] = useState<DocumentOwner[]>([]);
  const [text, setText] = useState('');
  const searchText = useDebounced(text.trim());
  const [sortKept, keepSort] = useKeptSort();
  const [failure, setFailure] = useState(false);

  const products = loadStateOf(useQuery(productQueries.list(accountIndex)));
  const ownersQuery = useQuery({
    ...documentQueries.owners(accountIndex, productSlug),
    enabled: productSlug !== '',
  });
  // Before a product is chosen there are no owners to choose from.
  const noOwners: LoadState<DocumentOwner[]> = { kind: 'ready', value: [] };
  const ownerOptions = productSlug ? loadStateOf(ownersQuery) : noOwners;

  const ownerCodes = owners.map((o) => o.code);
  async function download(document: SearchableDocument) {
    setFailure(false);
    setFailure(!(await downloadDocument(accountIndex, document)));
  }

  const kindOf = (d: SearchableDocument) => {
    const kind = Object.hasOwn(KINDS, d.entityType)
      ? KINDS[d.entityType as keyof typeof KINDS]
      : null;
    return kind ? t(`search.kinds.${kind}`) : d.entityType;
  };

  const columns: TableColumn<SearchableDocument>[] = [
    {
      id: 'filename',
      header: t('search.columns.filename'),
      width: '2fr',
      sortable: true,
      cell: (d) => <span className="font-medium text-slate-900">{d.filename}</span>,
    },
    {
      id: 'owner',
      header: t('search.columns.owner'),
      width: '2fr',
      cell: (d) => displayNameOf(d.owner) || d.owner.accountNumber,
    },
    { id: 'kind', header: t('search.columns.kind'), cell: kindOf },
    {
      id: 'created',
      header: t('search.columns.created'),
      sortable: true,
      cell: (d) => formatDateTime(d.createdAt),
    },
    {
      id: 'download',
      header: t('search.columns.download'),
      width: '8rem',
      cell: (d) => (
        <Button
          variant="secondary"
          aria-label={t('search.download_label', { filename: d.filename })}
          onClick={() => void download(d)}
        >
          {t('search.download')}
        </Button>
      ),
    },
  ];

  const productOptions =
    products.kind === 'ready' ? products.value.map((p) => ({ value: p.slug, label: p.name })) : [];

  return (
    <div className="flex flex-col gap-6">
      <ListTitle title={t('search.title')} />
      {failure || products.kind === 'failed' || ownerOptions.kind === 'failed' ? (
        <AlertBar tone="danger" onDismiss={() => setFailure(false)}>
          {t('common:messages.error')}
        </AlertBar>
      ) : null}
      <div role="search" className="flex flex-wrap items-start gap-4">
        <div className="w-64">
          <SelectInput
            label={t('search.product')}
            required
            value={productSlug}
            options={productOptions}
            disabled={products.kind !== 'ready'}
            onChange={(slug) => {
              setProductSlug(slug);
              // Owners belong to a product: another product starts without a choice.
              setOwners([]);
            }}
          />
        </div>
        <OwnerSelect
          owners={ownerOptions.kind === 'ready' ? ownerOptions.value : []}
          value={owners}
          onChange={setOwners}
          disabled={!productSlug || ownerOptions.kind !== 'ready'}
        />
        <KeywordField accountIndex={accountIndex} value={text} onChange={setText} />
      </div>
      {productSlug ? (
        <InfiniteTable
          key={JSON.stringify({ productSlug, ownerCodes, searchText })}
          initialQuery={{ filters: {}, sort: sortKept }}
          label={t('search.table')}
          columns={columns}
          minWidth="56rem"
          loadPage={servicePages((page, sort, signal) => {
            keepSort(sort);
            return searchDocuments(
              accountIndex,
              {
                productSlug,
                ownerCodes,
                searchText,
                page,
                order: serviceOrder(sort, ORDER_FIELDS),
              },
              signal,
            );
          })}
          rowKey={(d) => d.code}
          emptyMessage={t('search.empty')}
        />
      ) : (
        <p className="text-slate-700" data-testid="documents-choose-product">
          {t('search.choose_product')}
        </p>
      )}
    </div>
  );
}
