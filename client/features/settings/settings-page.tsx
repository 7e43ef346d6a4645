import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '#client/ui/spinner.tsx';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BrandingTab } from './branding-tab.tsx';
import { ChatWidgetTab } from './chat-widget-tab.tsx';
import { CustomSchemasTab } from './custom-schemas-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { OptionsTab } from './options-tab.tsx';
import { NamesTab } from './names-tab.tsx';
import { PaymentTab } from './payment-tab.tsx';

// The log is read, not edited, and seldom: its code loads when its tab first opens.
const ActivityLogTab = lazy(() => import('./activity-log-tab.tsx'));

/**
 * Tenant settings (route rule: tenant-management.settings.update). Each tab loads and saves its
 * own part, so an error in one never loses what was typed in another; the active tab is in the
 * hash (`#tab=branding`).
 */
export default function SettingsPage() {
  const { t } = useTranslation('tenant_settings');
  usePageTitle(t('title'));
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
      <p className="max-w-3xl text-slate-700">{t('intro')}</p>
      <HashTabs
        id="tab"
        label={t('tabs_label')}
        tabs={[
          { id: 'general', label: t('tabs.general'), content: <GeneralTab /> },
          { id: 'branding', label: t('tabs.branding'), content: <BrandingTab /> },
          { id: 'chat-widget', label: t('tabs.chat_widget'), content: <ChatWidgetTab /> },
          { id: 'payment', label: t('tabs.payment'), content: <PaymentTab /> },
          { id: 'options', label: t('tabs.options'), content: <OptionsTab /> },
          { id: 'custom-fields', label: t('tabs.custom_schemas'), content: <CustomSchemasTab /> },
          { id: 'names', label: t('tabs.names'), content: <NamesTab /> },
          {
            id: 'activity-log',
            label: t('tabs.activity_log'),
            content: (
              <Suspense fallback={<Spinner label={t('activity_log.loading')} />}>
                <ActivityLogTab />
              </Suspense>
            ),
          },
        ]}
      />
    </div>
  );
}
