import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { roleQueries } from '#client/api/roles-queries.ts';
import { Alert } from '#client/ui/alert.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { moduleOf } from '#common/permission-catalogue.ts';
import { useCatalogueLabel } from './labels.ts';
import { BackLink, LoadFailure } from './page-parts.tsx';
import { roleErrorCode } from './role-form.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useTranslatedText } from '#client/i18n/translated-text.ts';
import { useRoleAbilities } from './use-role-abilities.ts';

/**
 * Every permission a user holds and the roles granting it (beyond the spec: answers "why may
 * this person do that?" without opening each role). Opened from a row of the users list.
 */
export default function EffectivePermissionsPage() {
  const { t } = useTranslation('admin_roles');
  const translated = useTranslatedText();
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
            <DataTable
              variant="boxed"
              width="w-full max-w-5xl"
              caption={t('effective.table')}
              rows={loaded.value.items}
              rowKey={(item) => item.permission}
              columns={[
                {
                  id: 'permission',
                  header: t('effective.columns.permission'),
                  rowHeader: true,
                  cellClassName: 'font-mono',
                  cell: (item) => item.permission,
                },
                {
                  id: 'module',
                  header: t('effective.columns.module'),
                  cell: (item) => label('modules', moduleOf(item.permission)),
                },
                {
                  id: 'roles',
                  header: t('effective.columns.roles'),
                  cell: (item) =>
                    item.roles.map((code, index) => {
                      const role = loaded.value.user.roles.find((r) => r.code === code);
                      return (
                        <Fragment key={code}>
                          {index > 0 ? ', ' : null}
                          {role && canViewRoles ? (
                            <Link
                              to={`/u/${accountIndex}/admin/roles/${role.id}`}
                              className="text-blue-800 underline"
                            >
                              {translated(role.label, role.labels)}
                            </Link>
                          ) : role ? (
                            translated(role.label, role.labels)
                          ) : (
                            code
                          )}
                        </Fragment>
                      );
                    }),
                },
              ]}
            />
          )}
          <div>{back}</div>
        </>
      )}
    </div>
  );
}
