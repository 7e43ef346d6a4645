import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { saveTenantSetting, settingValue, type SettingValue } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { SelectInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { BROKER_VERSIONS, SETTING_KEYS, checkOptions } from './settings-forms.ts';
import { QueryTab, SettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsForm } from './use-settings-tab.ts';

interface OptionsDraft {
  dashboardAlert: string;
  brokerVersion: string;
}

function optionsDraft(values: readonly SettingValue[]): OptionsDraft {
  const alert = settingValue(values, SETTING_KEYS.dashboardAlert);
  const version = settingValue(values, SETTING_KEYS.brokerVersion);
  return {
    dashboardAlert: typeof alert === 'string' ? alert : '',
    brokerVersion: typeof version === 'string' ? version : 'v1',
  };
}

export function OptionsTab() {
  const { accountIndex } = useSettingsAccount();
  const query = useQuery({
    ...settingsQueries.values(accountIndex, [
      SETTING_KEYS.dashboardAlert,
      SETTING_KEYS.brokerVersion,
    ]),
    select: optionsDraft,
  });
  return (
    <QueryTab
      query={query}
      render={(draft, account) => <OptionsForm initial={draft} {...account} />}
    />
  );
}

function OptionsForm({
  initial,
  accountIndex,
  canEdit,
}: {
  initial: OptionsDraft;
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation('tenant_settings');
  const { values, setValues, errors, setErrors, saving, error, save } = useSettingsForm(initial);
  return (
    <SettingsForm
      title={t('options.title')}
      intro={t('options.intro')}
      saving={saving}
      error={error}
      canEdit={canEdit}
      onSubmit={() => {
        const checked = checkOptions(values);
        setErrors(checked.ok ? {} : checked.errors);
        if (!checked.ok) return;
        void save(async () => {
          await saveTenantSetting(accountIndex, {
            key: SETTING_KEYS.dashboardAlert,
            value: checked.value.dashboardAlert,
          });
          await saveTenantSetting(accountIndex, {
            key: SETTING_KEYS.brokerVersion,
            value: checked.value.brokerVersion,
          });
          setValues(checked.value);
        });
      }}
    >
      <TextareaInput
        label={t('options.dashboard_alert')}
        name="dashboardAlert"
        value={values.dashboardAlert}
        hint={t('options.dashboard_alert_hint')}
        errors={errors.dashboardAlert}
        disabled={!canEdit}
        rows={3}
        onChange={(dashboardAlert) => setValues((current) => ({ ...current, dashboardAlert }))}
      />
      <SelectInput
        label={t('options.broker_version')}
        name="brokerVersion"
        value={values.brokerVersion}
        required
        errors={errors.brokerVersion}
        disabled={!canEdit}
        options={BROKER_VERSIONS.map((value) => ({
          value,
          label: t(`options.broker_versions.${value}`),
        }))}
        onChange={(brokerVersion) => setValues((current) => ({ ...current, brokerVersion }))}
      />
    </SettingsForm>
  );
}
