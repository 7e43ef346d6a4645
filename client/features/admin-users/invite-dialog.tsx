import { Dialog, DialogPanel, DialogTitle } from '#client/ui/dialog.tsx';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createInvites,
  listAll,
  listOrganizations,
  type OrganizationRef,
  type RoleRef,
} from '#client/api/tenant-admin-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { CheckboxGroup } from '#client/ui/form/checkbox-group.tsx';
import {
  INVITE_TEXT_MAX,
  checkInviteEmails,
  refusedEmails,
  type InviteProblem,
} from './invite-form.ts';
import { errorKey } from './user-errors.ts';

interface InviteResult {
  email: string;
  ok: boolean;
  error?: string;
}

/**
 * "Invite users": several addresses at once, one organisation, roles. After sending it shows
 * each address's result and stays open, so that the administrator sees what did not go out.
 */
export function InviteDialog({
  accountIndex,
  roles,
  onClose,
}: {
  accountIndex: number;
  roles: readonly RoleRef[];
  onClose: (invited: boolean) => void;
}) {
  const { t } = useTranslation(['admin_users', 'common']);
  const id = useId();
  const [emailsText, setEmailsText] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const [roleIds, setRoleIds] = useState<ReadonlySet<number>>(new Set());
  const [organizations, setOrganizations] = useState<OrganizationRef[]>([]);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<InviteResult[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listAll((page, signal) => listOrganizations(accountIndex, page, signal), controller.signal)
      .then(setOrganizations)
      .catch((failure: unknown) => {
        // Without the organisations permission the invite goes out without one.
        if (!controller.signal.aborted) console.error('organisations failed', failure);
      });
    return () => controller.abort();
  }, [accountIndex]);

  const invited = results?.some((r) => r.ok) ?? false;
  const problemText = (problem: InviteProblem) =>
    'values' in problem ? t(problem.key, problem.values) : t(problem.key);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkInviteEmails(emailsText);
    if (!checked.ok) {
      setFieldError(problemText(checked.problem));
      return;
    }
    const { emails } = checked;
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      const answer = await createInvites(accountIndex, {
        emails,
        organizationId: organizationId ? Number(organizationId) : null,
        roleIds: [...roleIds],
      });
      setResults(answer.results);
    } catch (failure) {
      const refused = refusedEmails(failure, emails);
      if (refused) {
        setFieldError(problemText(refused));
      } else if (failure instanceof ApiError && failure.code === 'escalation') {
        setError(t('errors.escalation'));
      } else {
        console.error('invite failed', failure);
        setError(t('errors.generic'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => (busy ? undefined : onClose(invited))}
      className="fixed inset-0 z-50"
    >
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl" aria-busy={busy}>
          <DialogTitle className="text-lg font-bold text-slate-900">
            {t('invite_dialog.title')}
          </DialogTitle>
          {results ? (
            <div className="mt-4 flex flex-col gap-4">
              <h3 className="font-semibold text-slate-900">{t('invite_dialog.results')}</h3>
              <ul className="flex flex-col gap-1" data-testid="invite-results">
                {results.map((result) => (
                  <li
                    key={result.email}
                    className={result.ok ? 'text-emerald-800' : 'text-red-800'}
                  >
                    {result.email}:{' '}
                    {result.ok ? t('invite_dialog.sent') : t(errorKey(result.error ?? ''))}
                  </li>
                ))}
              </ul>
              <div className="flex justify-end">
                <Button data-autofocus onClick={() => onClose(invited)}>
                  {t('common:actions.close')}
                </Button>
              </div>
            </div>
          ) : (
            <form
              noValidate
              onSubmit={(event) => void submit(event)}
              className="mt-4 flex flex-col gap-4"
            >
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-emails`} className="text-sm font-medium text-slate-800">
                  {t('invite_dialog.emails')}
                </label>
                <textarea
                  id={`${id}-emails`}
                  rows={4}
                  maxLength={INVITE_TEXT_MAX}
                  value={emailsText}
                  disabled={busy}
                  aria-invalid={fieldError !== null}
                  aria-describedby={`${id}-emails-hint${fieldError ? ` ${id}-emails-error` : ''}`}
                  onChange={(event) => setEmailsText(event.target.value)}
                  className="rounded-md border border-slate-400 px-3 py-2"
                />
                <p id={`${id}-emails-hint`} className="text-sm text-slate-600">
                  {t('invite_dialog.emails_hint')}
                </p>
                {fieldError ? (
                  <p id={`${id}-emails-error`} className="text-sm text-red-800">
                    {fieldError}
                  </p>
                ) : null}
              </div>
              {organizations.length > 0 ? (
                <div className="flex flex-col gap-1">
                  <label htmlFor={`${id}-org`} className="text-sm font-medium text-slate-800">
                    {t('invite_dialog.organization')}
                  </label>
                  <select
                    id={`${id}-org`}
                    value={organizationId}
                    disabled={busy}
                    onChange={(event) => setOrganizationId(event.target.value)}
                    className="rounded-md border border-slate-400 px-3 py-2"
                  >
                    <option value="">{t('invite_dialog.no_organization')}</option>
                    {organizations.map((org) => (
                      <option key={org.id} value={String(org.id)}>
                        {org.name}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              <CheckboxGroup
                legend={t('invite_dialog.roles')}
                options={roles}
                value={roleIds}
                onChange={setRoleIds}
                disabled={busy}
              />
              {error ? <Alert tone="danger">{error}</Alert> : null}
              <div className="flex justify-end gap-3">
                <Button variant="secondary" disabled={busy} onClick={() => onClose(false)}>
                  {t('common:actions.cancel')}
                </Button>
                <Button type="submit" disabled={busy}>
                  {t('invite_dialog.send')}
                </Button>
              </div>
            </form>
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
