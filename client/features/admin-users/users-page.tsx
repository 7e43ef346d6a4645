import { useTranslation } from 'react-i18next';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { InvitesTab } from './invites-tab.tsx';
import { useAdminAbilities, useRoles } from './use-admin-context.ts';
import { UsersTab } from './users-tab.tsx';

/** User administration (issue 3, screen 1): the users of the workspace and pending invites. */
export default function UsersPage() {
  const { t } = useTranslation('admin_users');
  usePageTitle(t('title'));
  const abilities = useAdminAbilities();
  const roles = useRoles(abilities.accountIndex);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
      <HashTabs
        id="tab"
        label={t('tabs.label')}
        tabs={[
          {
            id: 'users',
            label: t('tabs.users'),
            content: <UsersTab abilities={abilities} roles={roles} />,
          },
          {
            id: 'invitations',
            label: t('tabs.invitations'),
            content: <InvitesTab abilities={abilities} roles={roles} />,
          },
        ]}
      />
    </div>
  );
}
