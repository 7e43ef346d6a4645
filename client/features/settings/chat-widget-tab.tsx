import { useTranslation } from 'react-i18next';
import {
  CHAT_WIDGET_SETTING_KEY,
  parseChatWidgetSetting,
  type ChatWidgetSetting,
} from '#machines/chat-widget.machine.ts';
import { saveSettingsGroup, type SettingsGroup } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { CheckboxInput, TextInput } from '#client/ui/form/fields.tsx';
import { checkChatWidget } from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

type ChatWidgetField = keyof ChatWidgetSetting;
const KEYS = [CHAT_WIDGET_SETTING_KEY];

const valuesOf = (group: SettingsGroup): ChatWidgetSetting =>
  parseChatWidgetSetting(group.values[CHAT_WIDGET_SETTING_KEY] ?? null);

const comparable = (setting: ChatWidgetSetting): Record<ChatWidgetField, string> => ({
  enabled: String(setting.enabled),
  webhookUrl: setting.webhookUrl,
  version: setting.version,
});

const conflictRows = (loaded: SettingsGroup, mine: ChatWidgetSetting, saved: SettingsGroup) =>
  conflictRowsOf<ChatWidgetField>(
    ['enabled', 'webhookUrl', 'version'],
    comparable(valuesOf(loaded)),
    comparable(mine),
    comparable(valuesOf(saved)),
  );

/**
 * The chat widget, edited on `record-edit`: saved on top of the version read, so a save another
 * admin made meanwhile shows as a conflict instead of being overwritten.
 */
export function ChatWidgetTab() {
  const { t } = useTranslation('tenant_settings');
  const { accountIndex, canEdit } = useSettingsAccount();
  const labels = {
    enabled: t('chat_widget.enabled'),
    webhookUrl: t('chat_widget.webhook_url'),
    version: t('chat_widget.version'),
  };
  const form = useSettingsEdit({
    query: settingsQueries.group(accountIndex, KEYS),
    name: 'group',
    valuesOf,
    emptyValues: () => parseChatWidgetSetting(null),
    validate: (values: ChatWidgetSetting) => {
      const checked = checkChatWidget(values, labels);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    send: (input, version) =>
      saveSettingsGroup(accountIndex, [{ key: CHAT_WIDGET_SETTING_KEY, value: input }], version),
    conflictRows,
  });
  const { values, setValues, errors } = form;
  return (
    <VersionedSettingsForm
      form={form}
      title={t('chat_widget.title')}
      intro={t('chat_widget.intro')}
      canEdit={canEdit}
      label={(field: ChatWidgetField) => labels[field]}
      shown={(field, value) =>
        field === 'enabled' ? t(value === 'true' ? 'conflict.on' : 'conflict.off') : value
      }
    >
      <CheckboxInput
        label={labels.enabled}
        name="enabled"
        checked={values.enabled}
        disabled={!canEdit}
        onChange={(enabled) => setValues((current) => ({ ...current, enabled }))}
      />
      {/* Where the widget sends and which version it loads: both needed while it is on. */}
      {(
        [
          ['webhookUrl', t('chat_widget.webhook_hint'), 2000],
          ['version', t('chat_widget.version_hint'), 40],
        ] as const
      ).map(([field, hint, maxLength]) => (
        <TextInput
          key={field}
          label={labels[field]}
          name={field}
          value={values[field]}
          hint={hint}
          required={values.enabled}
          errors={errors[field]}
          disabled={!canEdit}
          maxLength={maxLength}
          onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
        />
      ))}
    </VersionedSettingsForm>
  );
}
