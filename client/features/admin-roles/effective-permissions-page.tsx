import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { roleQueries } from '#client/api/roles-queries.ts';
import { Alert } from '#client/ui/alert.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { moduleOf } from '#common/permission-catalogue.ts';
import { useCatalogueLabel } from './labels.ts';
import { BackLink, LoadFailure } from './page-parts.tsx';
import { roleErrorCode } from './role-form.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useRoleAbilities } from './use-role-abilities.ts';

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
  const query = useQuery(roleQueries.effective(accountIndex, userId));
  const loaded = loadStateOf(query);
  const retry = () => void query.refetch();
  const notFound = loaded.kind === 'failed' && roleErrorCode(loaded.error) === 'not_found';

  const back = <BackLink to={`/u/${accountIndex}/admin/users`}>{t('effective.back')}</BackLink>;

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('effective.title')}</h1>
      {loaded.kind === 'loading' ? (
        <Spinner label={t('effective.loading')} />
      ) : loaded.kind === 'failed' ? (
        <LoadFailure
          message={notFound ? t('effective.not_found') : t('effective.failed')}
          onRetry={notFound ? null : retry}
          back={back}
        />
      ) : (
        <>
          <p className="text-slate-700">
            {t('effective.intro', {
              name:
                `${loaded.value.user.firstName} ${loaded.value.user.lastName}`.trim() ||
                loaded.value.user.email,
              email: loaded.value.user.email,
            })}
          </p>
          {loaded.value.items.length === 0 ? (
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
                {loaded.value.items.map((item) => (
                  <tr key={item.permission} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
                      {item.permission}
                    </th>
                    <td className="px-3 py-2">{label('modules', moduleOf(item.permission))}</td>
                    <td className="px-3 py-2">
                      {item.roles.map((code, index) => {
                        const role = loaded.value.user.roles.find((r) => r.code === code);
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
