import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { usePersonNames } from '#client/entities/person/person-name.ts';
import { useLocation, useNavigate } from 'react-router';
import type { Lead } from '#client/api/leads-client.ts';
import { leadQueries } from '#client/api/leads-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { parseHashPairs, withHashPair } from '#client/ui/hash-params.ts';
import { LeadStatusBadge } from '#client/entities/lead/lead-status.tsx';
import { RowButton } from '#client/ui/row-button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { ExtrasView, PolicyDataView, PremiumView } from './lead-views.tsx';
import { useTariff } from '#client/entities/product/use-tariff.ts';
import type { LeadAbilities } from './use-lead-abilities.ts';

/** The service names what a save changed in camelCase (paymentMethod); the keys are snake_case. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The hash key of the version that is open (`#tab=versions&version=2`), so a link opens it. */
const VERSION_KEY = 'version';

/**
 * The lead's saved versions, newest first: which status it had, what each save changed, when and
 * by whom. Opening one shows the lead as it was then, read-only.
 */
export function LeadVersionsTab({ lead, abilities }: { lead: Lead; abilities: LeadAbilities }) {
  const { t } = useTranslation('leads');
  const nameOf = usePersonNames();
  const location = useLocation();
  const navigate = useNavigate();
  const opened = Number(parseHashPairs(location.hash)[VERSION_KEY] ?? '') || null;
  const open = (version: number | null) =>
    void navigate(
      {
        ...location,
        hash: withHashPair(location.hash, VERSION_KEY, version ? String(version) : null),
      },
      { replace: true, state: { onClickTab: true } },
    );
  const versions = lead.versions ?? [];

  return (
    <div className="flex flex-col gap-6">
      <DataTable
        caption={t('versions.caption')}
        rows={versions}
        rowKey={(version) => version.version}
        bodyTestId="lead-versions"
        columns={[
          {
            id: 'version',
            header: t('versions.version'),
            cell: (version) => t('versions.number', { version: version.version }),
          },
          {
            id: 'status',
            header: t('versions.status'),
            cell: (version) => <LeadStatusBadge status={version.status} />,
          },
          {
            id: 'changes',
            header: t('versions.changes'),
            cell: (version) =>
              version.changedFields
                .map((field) =>
                  t(`changes.${snakeCase(field)}` as 'changes.status', { defaultValue: field }),
                )
                .join(', '),
          },
          {
            id: 'saved_at',
            header: t('versions.saved_at'),
            cell: (version) => formatDateTime(version.createdAt),
          },
          {
            id: 'saved_by',
            header: t('versions.saved_by'),
            title: (version) => nameOf(version.createdBy).title,
            cell: (version) => nameOf(version.createdBy).label,
          },
          {
            id: 'actions',
            header: <span className="sr-only">{t('versions.actions')}</span>,
            cell: (version) => (
              <RowButton
                label={t('versions.open')}
                name={t('versions.open_named', { version: version.version })}
                onClick={() => open(version.version)}
              />
            ),
          },
        ]}
      />
      {opened ? (
        <VersionView
          key={opened}
          lead={lead}
          version={opened}
          abilities={abilities}
          onClose={() => open(null)}
        />
      ) : null}
    </div>
  );
}

function VersionView({
  lead,
  version,
  abilities,
  onClose,
}: {
  lead: Lead;
  version: number;
  abilities: LeadAbilities;
  onClose: () => void;
}) {
  const { t } = useTranslation('leads');
  const nameOf = usePersonNames();
  const { accountIndex } = abilities;
  const query = useQuery(leadQueries.version(accountIndex, lead.code, version));
  const state = loadStateOf(query);
  const retry = () => void query.refetch();
  const snapshot = state.kind === 'ready' ? state.value.lead : null;
  const tariff = useTariff(
    accountIndex,
    snapshot?.productVersionId ?? null,
    abilities.canViewProducts,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <section
      aria-labelledby="lead-version-heading"
      className="flex flex-col gap-4 rounded-md border border-slate-300 bg-slate-50 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2
          id="lead-version-heading"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-slate-900"
        >
          {t('versions.view_title', { version })}
        </h2>
        <Button variant="secondary" onClick={onClose}>
          {t('versions.close')}
        </Button>
      </div>
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <div className="flex flex-col items-start gap-2">
          <AlertBar tone="danger" dismissible={false}>
            {t('errors.version_failed')}
          </AlertBar>
          <Button variant="secondary" onClick={retry}>
            {t('actions.retry')}
          </Button>
        </div>
      ) : null}
      {state.kind === 'ready' && snapshot ? (
        <>
          <p className="text-sm text-slate-700">
            {t('versions.view_note', {
              at: formatDateTime(state.value.createdAt),
              by: nameOf(state.value.createdBy).label,
            })}
          </p>
          <div className="flex items-center gap-2 text-sm">
            <span className="font-medium text-slate-800">{t('versions.status')}</span>
            <LeadStatusBadge status={snapshot.status} />
          </div>
          <PolicyDataView
            objects={snapshot.policy.policyObjects}
            tariff={tariff.kind === 'ready' ? tariff.value : null}
            idPrefix={`version-${version}`}
          />
          <PremiumView
            premium={snapshot.premium}
            tariff={tariff.kind === 'ready' ? tariff.value : null}
          />
          <ExtrasView lead={snapshot} />
        </>
      ) : null}
    </section>
  );
}
