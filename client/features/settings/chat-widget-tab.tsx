import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CHAT_WIDGET_SETTING_KEY,
  parseChatWidgetSetting,
  type ChatWidgetSetting,
} from '#machines/chat-widget.machine.ts';
import { saveTenantSetting, settingValue } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { CheckboxInput, TextInput } from '#client/ui/form/fields.tsx';
import { checkChatWidget } from './settings-forms.ts';
import { QueryTab, SettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsForm } from './use-settings-tab.ts';

export function ChatWidgetTab() {
  const { accountIndex } = useSettingsAccount();
  const query = useQuery({
    ...settingsQueries.values(accountIndex, [CHAT_WIDGET_SETTING_KEY]),
    select: (values) => parseChatWidgetSetting(settingValue(values, CHAT_WIDGET_SETTING_KEY)),
  });
  return (
    <QueryTab
      query={query}
      render={(setting, account) => <ChatWidgetForm initial={setting} {...account} />}
    />
  );
}

function ChatWidgetForm({
  initial,
  accountIndex,
  canEdit,
}: {
  initial: ChatWidgetSetting;
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation('tenant_settings');
  const { values, setValues, errors, setErrors, saving, error, save } = useSettingsForm(initial);
  const labels = { webhookUrl: t('chat_widget.webhook_url'), version: t('chat_widget.version') };
  return (
    <SettingsForm
      title={t('chat_widget.title')}
      intro={t('chat_widget.intro')}
      saving={saving}
      error={error}
      canEdit={canEdit}
      onSubmit={() => {
        const checked = checkChatWidget(values, labels);
        setErrors(checked.ok ? {} : checked.errors);
        if (!checked.ok) return;
        void save(async () => {
          const saved = await saveTenantSetting(accountIndex, {
            key: CHAT_WIDGET_SETTING_KEY,
            value: checked.value,
          });
          setValues(parseChatWidgetSetting(saved.value));
        });
      }}
    >
      <CheckboxInput
        label={t('chat_widget.enabled')}
        name="enabled"
        checked={values.enabled}
        disabled={!canEdit}
        onChange={(enabled) => setValues((current) => ({ ...current, enabled }))}
      />
      <TextInput
        label={labels.webhookUrl}
        name="webhookUrl"
        value={values.webhookUrl}
        hint={t('chat_widget.webhook_hint')}
        required={values.enabled}
        errors={errors.webhookUrl}
        disabled={!canEdit}
        maxLength={2000}
        onChange={(webhookUrl) => setValues((current) => ({ ...current, webhookUrl }))}
      />
      <TextInput
        label={labels.version}
        name="version"
        value={values.version}
        hint={t('chat_widget.version_hint')}
        required={values.enabled}
        errors={errors.version}
        disabled={!canEdit}
        maxLength={40}
        onChange={(version) => setValues((current) => ({ ...current, version }))}
      />
    </SettingsForm>
  );
}
