import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ProfileLanguage } from './profile-language.tsx';

/** The signed-in user's own account (route rule: the get-account permission). */
export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const { accountIndex } = useParams();
  const account = SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => String(a.accountIndex) === accountIndex),
  );
  usePageTitle(t('profile.title'));
  if (!account) return null;
  const rows: [string, string][] = [
    [t('profile.name'), account.userFullName],
    [t('profile.email'), account.userName],
    [t('profile.tenant'), account.tenantName],
    [t('profile.workspace'), account.workspace ?? account.tenantSlug],
  ];
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('profile.title')}</h1>
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-3 gap-4 px-4 py-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="col-span-2">{value}</dd>
          </div>
        ))}
        <div className="grid grid-cols-3 gap-4 px-4 py-3">
          <dt className="text-sm text-slate-600">{t('profile.permissions')}</dt>
          <dd className="col-span-2">
            <ul className="flex flex-wrap gap-2">
              {account.permissions.map((p) => (
                <li key={p} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">
                  {p}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
      <ProfileLanguage accountIndex={account.accountIndex} />
      <p>
        <Link
          className="text-blue-800 underline"
          to={`/u/${account.accountIndex}/changepassword?backUrl=${encodeURIComponent(`/u/${account.accountIndex}/profile`)}`}
        >
          {t('profile.change_password')}
        </Link>
      </p>
    </div>
  );
}
