import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Lead } from '#client/api/leads-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { LeadExtrasForm } from './lead-extras-form.tsx';
import { applicantName } from '#common/party-name.ts';
import { ExtrasView, PolicyDataView, PremiumView } from './lead-views.tsx';
import type { LeadAbilities } from './use-lead-abilities.ts';
import { useTariff } from '#client/entities/product/use-tariff.ts';

const link = 'font-medium text-blue-800 underline-offset-2 hover:underline';
const button =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100';

/**
 * The lead's data: who applies (the customer, or a prospect's name), for which product, the
 * policy object data by field label and the premium; below, the payment and free data, editable
 * while the lead is open and the user may update leads.
 */
export function LeadDataTab({
  lead,
  abilities,
  editable,
  onSaved,
  onReload,
}: {
  lead: Lead;
  abilities: LeadAbilities;
  /** False for a lead in a final status: the service keeps it as it is. */
  editable: boolean;
  onSaved: (lead: Lead) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation('leads');
  const { accountIndex } = abilities;
  const tariff = useTariff(accountIndex, lead.productVersionId, abilities.canViewProducts);
  const known = tariff.kind === 'ready' ? tariff.value : null;
  const application = `/u/${accountIndex}/leads/${lead.code}`;
  const applicationPath = `${lead.productId}/${lead.productVersionId}`;

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="lead-applicant" className="flex flex-col gap-2">
        <h2 id="lead-applicant" className="text-lg font-semibold text-slate-900">
          {t('data.applicant')}
        </h2>
        <dl className="grid grid-cols-[minmax(10rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="font-medium text-slate-800">{t('data.customer')}</dt>
          <dd>
            {lead.account && abilities.canViewCustomers ? (
              <Link to={`/u/${accountIndex}/customers/${lead.account.code}`} className={link}>
                {applicantName(lead)}
              </Link>
            ) : (
              applicantName(lead)
            )}
            {lead.account ? ` (${lead.account.accountNumber})` : ` · ${t('data.prospect')}`}
          </dd>
          <dt className="font-medium text-slate-800">{t('data.product')}</dt>
          <dd>
            {abilities.canViewProducts ? (
              <Link
                to={`/u/${accountIndex}/management/product/${lead.productId}/${lead.productVersionId}`}
                className={link}
              >
                {lead.productName}
              </Link>
            ) : (
              lead.productName
            )}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="lead-policy" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="lead-policy" className="text-lg font-semibold text-slate-900">
            {t('data.policy')}
          </h2>
          {abilities.canViewProducts ? (
            <div className="flex gap-2">
              <Link to={`${application}/view-application/${applicationPath}`} className={button}>
                {t('application.view')}
              </Link>
              {abilities.canUpdate && editable ? (
                <Link to={`${application}/edit-application/${applicationPath}`} className={button}>
                  {t('application.edit')}
                </Link>
              ) : null}
            </div>
          ) : null}
        </div>
        {tariff.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
        {tariff.kind === 'failed' ? (
          <div className="flex flex-col items-start gap-2">
            <AlertBar tone="warning" dismissible={false}>
              {t('errors.labels_failed')}
            </AlertBar>
            <Button variant="secondary" onClick={tariff.retry}>
              {t('actions.retry')}
            </Button>
          </div>
        ) : null}
        {tariff.kind !== 'loading' ? (
          <PolicyDataView objects={lead.policy.policyObjects} tariff={known} idPrefix="current" />
        ) : null}
      </section>

      <section aria-labelledby="lead-premium" className="flex flex-col gap-3">
        <h2 id="lead-premium" className="text-lg font-semibold text-slate-900">
          {t('data.premium')}
        </h2>
        <PremiumView premium={lead.premium} tariff={known} />
      </section>

      <section aria-labelledby="lead-extras" className="flex flex-col gap-3">
        <h2 id="lead-extras" className="text-lg font-semibold text-slate-900">
          {t('data.extras')}
        </h2>
        {abilities.canUpdate && editable ? (
          <LeadExtrasForm
            key={lead.code}
            lead={lead}
            accountIndex={accountIndex}
            onSaved={onSaved}
            onReload={onReload}
          />
        ) : (
          <>
            <p className="text-sm text-slate-700" data-testid="read-only-note">
              {abilities.canUpdate ? t('detail.final_note') : t('detail.read_only')}
            </p>
            <ExtrasView lead={lead} />
          </>
        )}
      </section>
    </div>
  );
}
