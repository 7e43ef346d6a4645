import { useTranslation } from 'react-i18next';
import type { PolicyStatus, RevisionStatus } from '#client/api/policies-client.ts';

const STATUS_STYLE: Record<PolicyStatus, string> = {
  ACTIVE: 'bg-green-100 text-green-900',
  SUSPENDED: 'bg-amber-100 text-amber-900',
  TERMINATED: 'bg-red-100 text-red-900',
  WITHDRAWN: 'bg-slate-200 text-slate-800',
  EXPIRED: 'bg-slate-100 text-slate-700',
};

const REVISION_STYLE: Record<RevisionStatus, string> = {
  applied: 'bg-green-100 text-green-900',
  superseded: 'bg-slate-100 text-slate-700',
  draft: 'bg-amber-100 text-amber-900',
};

const badge = 'inline-block rounded px-2 py-0.5 text-xs font-semibold';

/** The badge's classes, for lists that render many badges without a hook each. */
export const policyStatusClass = (status: PolicyStatus) => `${badge} ${STATUS_STYLE[status]}`;

/** Locale key of a status: the service's values are upper case, locale leaves snake_case. */
export const policyStatusKey = (status: PolicyStatus) =>
  `status.${status.toLowerCase() as Lowercase<PolicyStatus>}` as const;

/** A policy's status, translated (texts of the `policies` namespace). */
export function PolicyStatusBadge({ status }: { status: PolicyStatus }) {
  const { t } = useTranslation('policies');
  return <span className={policyStatusClass(status)}>{t(policyStatusKey(status))}</span>;
}

/** A policy version's revision status: applied, superseded or draft. */
export function RevisionStatusBadge({ status }: { status: RevisionStatus }) {
  const { t } = useTranslation('policies');
  return (
    <span className={`${badge} ${REVISION_STYLE[status]}`}>{t(`revision_status.${status}`)}</span>
  );
}
