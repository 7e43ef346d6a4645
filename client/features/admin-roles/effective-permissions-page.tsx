import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  getEffectivePermissions,
  getUserWithRoles,
  type EffectivePermission,
  type UserWithRoles,
} from '#client/api/roles-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { moduleOf } from '#common/permission-catalogue.ts';
import { useCatalogueLabel } from './labels.ts';
import { roleErrorCode } from './role-form.ts';
import { useRoleAbilities } from './use-role-abilities.ts';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; notFound: boolean }
  | { kind: 'ready'; user: UserWithRoles; items: EffectivePermission[] };

/**
 * Every permission a user holds and the roles granting it (beyond the spec: answers "why may
 * this person do that?" without opening each role). Opened from a row of the users list.
 */
export default function EffectivePermissionsPage() {
  const { t } = useTranslation('admin_roles');
  usePageTitle(t('effective.title'));
  const { userId = '' } = useParams();
  const { accountIndex, canViewRoles } = useRoleAbilities();
  const label = useCatalogueLabel();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      getUserWithRoles(accountIndex, userId, controller.signal),
      getEffectivePermissions(accountIndex, userId, controller.signal),
    ])
      .then(([{ user }, { items }]) => setLoaded({ kind: 'ready', user, items }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('effective permissions failed', error);
        setLoaded({ kind: 'failed', notFound: roleErrorCode(error) === 'not_found' });
      });
    return () => controller.abort();
  }, [accountIndex, userId, attempt]);

  const back = (
    <Link
      to={`/u/${accountIndex}/admin/users`}
      className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
    >
      {t('effective.back')}
    </Link>
  );

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('effective.title')}</h1>
      {loaded.kind === 'loading' ? (
        <Spinner label={t('effective.loading')} />
      ) : loaded.kind === 'failed' ? (
        <div className="flex flex-col items-start gap-3">
          <Alert tone="danger">
            {loaded.notFound ? t('effective.not_found') : t('effective.failed')}
          </Alert>
          <div className="flex gap-3">
            {loaded.notFound ? null : (
              <Button
                variant="secondary"
                onClick={() => {
                  setLoaded({ kind: 'loading' });
                  setAttempt((n) => n + 1);
                }}
              >
                {t('effective.retry')}
              </Button>
            )}
            {back}
          </div>
        </div>
      ) : (
        <>
          <p className="text-slate-700">
            {t('effective.intro', {
              name: `${loaded.user.firstName} ${loaded.user.lastName}`.trim() || loaded.user.email,
              email: loaded.user.email,
            })}
          </p>
          {loaded.items.length === 0 ? (
            <Alert tone="info">{t('effective.empty')}</Alert>
          ) : (
            <table className="w-full max-w-5xl border-collapse rounded-lg border border-slate-200 bg-white text-sm">
              <caption className="sr-only">{t('effective.table')}</caption>
              <thead>
                <tr className="border-b border-slate-200 bg-slate-50 text-left text-slate-700">
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('effective.columns.permission')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('effective.columns.module')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('effective.columns.roles')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaded.items.map((item) => (
                  <tr key={item.permission} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
                      {item.permission}
                    </th>
                    <td className="px-3 py-2">{label('modules', moduleOf(item.permission))}</td>
                    <td className="px-3 py-2">
                      {item.roles.map((code, index) => {
                        const role = loaded.user.roles.find((r) => r.code === code);
                        return (
                          <Fragment key={code}>
                            {index > 0 ? ', ' : null}
                            {role && canViewRoles ? (
                              <Link
                                to={`/u/${accountIndex}/admin/roles/${role.id}`}
                                className="text-blue-800 underline"
                              >
                                {role.label}
                              </Link>
                            ) : (
                              (role?.label ?? code)
                            )}
                          </Fragment>
                        );
                      })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div>{back}</div>
        </>
      )}
    </div>
  );
}
