import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { VERSION_TRANSITIONS, type ProductVersionStatus } from '#common/products.ts';
import { updateProductVersion, type ProductVersion } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { useToast } from '#client/ui/toast.tsx';
import {
  LinkButton,
  Loading,
  StatusBadge,
  useFailureMessage,
  productLoadTexts,
} from './page-parts.tsx';
import { VersionDialog } from './product-dialogs.tsx';
import { useProductAbilities } from './use-product-abilities.ts';
import { categoryKey } from './labels.ts';
import { BookingFunnelsSection } from './booking-funnels-section.tsx';
import { TaxRateSection } from './tax-rate-section.tsx';
import { ProductDocumentsSection } from './product-documents-section.tsx';

/** The action that moves a version to a status, as its button says it. */
const TRANSITION_ACTION: Record<ProductVersionStatus, string> = {
  draft: 'actions.to_draft',
  active: 'actions.activate',
  passive: 'actions.retire',
  archived: 'actions.archive',
};

/**
 * One product (spec route /management/product/{productId}): its data and its versions with their
 * status; a new version, the status changes allowed from each status, and the version editor.
 */
export default function ProductPage() {
  const { t } = useTranslation('products');
  const { productId = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const {
    accountIndex,
    canCreateVersion,
    canUpdateVersion,
    canUpdateProduct,
    canViewTranslations,
  } = useProductAbilities();
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const query = useQuery(productQueries.detail(accountIndex, productId));
  const data = loadStateOf(query);
  // A status change alters the product's versions; the version pages read the product too.
  const reload = () =>
    void queryClient.invalidateQueries({
      queryKey: productQueries.detail(accountIndex, productId).queryKey,
    });
  const product = data.kind === 'ready' ? data.value : null;
  usePageTitle(product?.name ?? t('detail.title'));
  const listPath = `/u/${accountIndex}/management/product-list`;
  const versionPath = (version: ProductVersion) =>
    `/u/${accountIndex}/management/product/${productId}/${version.id}`;

  const changeStatus = (version: ProductVersion, status: ProductVersionStatus) =>
    void confirm({
      title: t(TRANSITION_ACTION[status] as 'actions.activate'),
      message: t('confirm.status', { version: version.version, status: t(`status.${status}`) }),
      tone: status === 'archived' ? 'danger' : 'primary',
      confirmLabel: t(TRANSITION_ACTION[status] as 'actions.activate'),
      action: () =>
        updateProductVersion(accountIndex, version.id, { status }).catch((error: unknown) => {
          throw new Error(failureMessage(error));
        }),
    }).then((done) => {
      if (!done) return;
      toast({
        message: t('messages.status_changed', { version: version.version }),
        tone: 'success',
      });
      reload();
    });

  if (data.kind === 'loading') return <Loading />;
  if (data.kind === 'failed')
    return (
      <LoadProblem
        error={data.error}
        {...productLoadTexts(t)}
        onRetry={() => void query.refetch()}
      />
    );
  const current = data.value;
  const versions = [...(current.versions ?? [])].reverse();

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{current.name}</h1>
        <div className="flex flex-wrap gap-2">
          {canViewTranslations ? (
            <LinkButton to={`/u/${accountIndex}/management/product/${current.id}/language`}>
              {t('languages.link')}
            </LinkButton>
          ) : null}
          <LinkButton to={listPath}>{t('actions.back_to_list')}</LinkButton>
        </div>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">{t('columns.slug')}</dt>
        <dd>{current.slug}</dd>
        <dt className="font-medium text-slate-700">{t('columns.category')}</dt>
        <dd>{t(categoryKey(current.category))}</dd>
        <dt className="font-medium text-slate-700">{t('columns.code')}</dt>
        <dd>{current.code}</dd>
      </dl>
      <TaxRateSection
        accountIndex={accountIndex}
        productId={current.id}
        canEdit={canUpdateProduct}
      />
      <ProductDocumentsSection
        accountIndex={accountIndex}
        slug={current.slug}
        canEdit={canUpdateProduct}
        versions={current.versions ?? []}
      />
      <section aria-labelledby="versions-heading" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="versions-heading" className="text-lg font-semibold text-slate-900">
            {t('detail.versions')}
          </h2>
          {canCreateVersion ? (
            <Button onClick={() => setCreating(true)}>{t('actions.new_version')}</Button>
          ) : null}
        </div>
        {versions.length === 0 ? (
          <p className="text-slate-700">{t('no_versions')}</p>
        ) : (
          <DataTable
            caption={t('detail.versions')}
            rows={versions}
            rowKey={(version) => version.id}
            columns={[
              {
                id: 'version',
                header: t('columns.version'),
                cell: (version) => (
                  <Link
                    to={versionPath(version)}
                    className="font-medium text-blue-800 underline-offset-2 hover:underline"
                  >
                    {t('version_number', { version: version.version })}
                  </Link>
                ),
              },
              {
                id: 'status',
                header: t('columns.status'),
                cell: (version) => <StatusBadge status={version.status} />,
              },
              {
                id: 'description',
                header: t('columns.description'),
                cell: (version) => version.description,
              },
              {
                id: 'updated',
                header: t('columns.updated'),
                cell: (version) => formatDateTime(version.updatedAt),
              },
              {
                id: 'actions',
                header: t('columns.actions'),
                cellClassName: 'flex flex-wrap gap-2',
                cell: (version) =>
                  canUpdateVersion
                    ? VERSION_TRANSITIONS[version.status].map((status) => (
                        <Button
                          key={status}
                          variant={status === 'archived' ? 'ghost' : 'secondary'}
                          aria-label={t('actions.status_for', {
                            action: t(TRANSITION_ACTION[status] as 'actions.activate'),
                            version: version.version,
                          })}
                          onClick={() => changeStatus(version, status)}
                        >
                          {t(TRANSITION_ACTION[status] as 'actions.activate')}
                        </Button>
                      ))
                    : null,
              },
            ]}
          />
        )}
      </section>
      <BookingFunnelsSection
        accountIndex={accountIndex}
        product={current}
        canEdit={canUpdateProduct}
      />
      {creating ? (
        <VersionDialog
          accountIndex={accountIndex}
          productId={current.id}
          copyFrom={current.versions?.at(-1) ?? null}
          onClose={(created) => {
            setCreating(false);
            if (created) void navigate(versionPath(created));
          }}
        />
      ) : null}
    </div>
  );
}
