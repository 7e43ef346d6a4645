import { useTranslation } from 'react-i18next';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { InvitationsTab } from './invitations-tab.tsx';
import { OrganizationsTab } from './organizations-tab.tsx';
import { useOrganizationAbilities } from './use-organization-context.ts';

/** Organisations of the tenant and the invitations for organisations to register (issue 3). */
export default function OrganizationsPage() {
  const { t } = useTranslation('admin_organizations');
  usePageTitle(t('title'));
  const abilities = useOrganizationAbilities();
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
      <HashTabs
        id="tab"
        label={t('tabs.label')}
        tabs={[
          {
            id: 'organizations',
            label: t('tabs.organizations'),
            content: <OrganizationsTab abilities={abilities} />,
          },
          {
            id: 'invitations',
            label: t('tabs.invitations'),
            content: <InvitationsTab abilities={abilities} />,
          },
        ]}
      />
    </div>
  );
}
