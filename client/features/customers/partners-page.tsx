import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listPartners, partnersParams, type Partner } from '#client/api/partners-client.ts';
import { partnerQueries } from '#client/api/partners-queries.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { ListTitle, UrlListTable } from '#client/entities/list-view/list-page.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

/**
 * The partners of the tenant, read-only: a search and a filter by tag, ordered by display name
 * (the order the partner selector uses too). Lives with the customers until partners get their
 * own screens (detail, provisions), which will move it into a feature of its own.
 */
export default function PartnersPage() {
  const { t } = useTranslation('customers');
  usePageTitle(t('partners.title'));
  const { accountIndex } = useCustomerAbilities();
  const filters = useUrlFilters(['search', 'tag'], { typed: ['search'] });
  const { search, tag } = filters.values;

  const tagsQuery = useQuery(partnerQueries.tags(accountIndex));
  const tags = loadStateOf(tagsQuery);
  const retryTags = () => void tagsQuery.refetch();

  const columns: TableColumn<Partner>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      width: '2fr',
      cell: (p) => (
        <Link className="text-blue-800 underline" to={`/u/${accountIndex}/partners/${p.code}`}>
          {p.displayName}
        </Link>
      ),
    },
    {
      id: 'number',
      header: t('columns.partner_number'),
      width: '8rem',
      cell: (p) => p.partnerNumber,
    },
    {
      id: 'type',
      header: t('columns.partner_type'),
      width: '9rem',
      cell: (p) => p.partnerType?.name ?? '',
    },
    {
      id: 'tags',
      header: t('columns.tags'),
      width: '2fr',
      cell: (p) => (p.tags ?? []).map((g) => g.label).join(', '),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <ListTitle title={t('partners.title')} />
      <div className="flex flex-wrap items-end gap-4">
        <ToolbarInput
          label={t('partners.search')}
          value={filters.drafts.search}
          onChange={(v) => filters.setDraft('search', v)}
        />
        <ToolbarSelect
          label={t('partners.tag')}
          value={tag}
          allLabel={t('toolbar.all')}
          disabled={tags.kind !== 'ready'}
          options={
            tags.kind === 'ready' ? tags.value.map((g) => ({ value: g.slug, label: g.label })) : []
          }
          onChange={(v) => filters.set('tag', v)}
        />
      </div>
      {tags.kind === 'failed' ? (
        <LoadProblem error={tags.error} failed={t('forms.messages.error')} onRetry={retryTags} />
      ) : null}
      <UrlListTable
        accountIndex={accountIndex}
        list="partners"
        url={filters}
        exportQuery={partnersParams({ search, tagSlugs: tag ? [tag] : [] })}
        filters={{ search, tag }}
        load={(page, _sort, signal) =>
          listPartners(accountIndex, { page, search, tagSlugs: tag ? [tag] : [] }, signal)
        }
        label={t('table.partners')}
        columns={columns}
        rowKey={(p) => String(p.id)}
        emptyMessage={t('table.partners_empty')}
      />
    </div>
  );
}
