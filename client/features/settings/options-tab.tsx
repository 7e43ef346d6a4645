import { useTranslation } from 'react-i18next';
import { saveSettingsGroup, type SettingsGroup } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { SelectInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { BROKER_VERSIONS, SETTING_KEYS, checkOptions } from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

interface OptionsDraft {
  dashboardAlert: string;
  brokerVersion: string;
}
type OptionsField = keyof OptionsDraft;
const KEYS = [SETTING_KEYS.dashboardAlert, SETTING_KEYS.brokerVersion];

function valuesOf(group: SettingsGroup): OptionsDraft {
  const alert = group.values[SETTING_KEYS.dashboardAlert];
  const version = group.values[SETTING_KEYS.brokerVersion];
  return {
    dashboardAlert: typeof alert === 'string' ? alert : '',
    brokerVersion: typeof version === 'string' ? version : 'v1',
  };
}

const conflictRows = (loaded: SettingsGroup, mine: OptionsDraft, saved: SettingsGroup) =>
  conflictRowsOf<OptionsField>(
    ['dashboardAlert', 'brokerVersion'],
    valuesOf(loaded),
    mine,
    valuesOf(saved),
  );

/**
 * The dashboard notice and broker management version, edited on `record-edit`: saved on top of
 * the version read, so a save another admin made meanwhile shows as a conflict instead of being
 * overwritten.
 */
export function OptionsTab() {
  const { t } = useTranslation('tenant_settings');
  const { accountIndex, canEdit } = useSettingsAccount();
  const labels = {
    dashboardAlert: t('options.dashboard_alert'),
    brokerVersion: t('options.broker_version'),
  };
  const form = useSettingsEdit({
    query: settingsQueries.group(accountIndex, KEYS),
    name: 'group',
    valuesOf,
    emptyValues: (): OptionsDraft => ({ dashboardAlert: '', brokerVersion: 'v1' }),
    validate: (values: OptionsDraft) => {
      const checked = checkOptions(values);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    send: (input, version) =>
      saveSettingsGroup(
        accountIndex,
        [
          { key: SETTING_KEYS.dashboardAlert, value: input.dashboardAlert },
          { key: SETTING_KEYS.brokerVersion, value: input.brokerVersion },
        ],
        version,
      ),
    conflictRows,
  });
  const { values, setValues, errors } = form;
  return (
    <VersionedSettingsForm
      form={form}
      title={t('options.title')}
      intro={t('options.intro')}
      canEdit={canEdit}
      label={(field: OptionsField) => labels[field]}
      shown={(field, value) =>
        field === 'brokerVersion' ? t(`options.broker_versions.${value as 'v1'}`, value) : value
      }
    >
      <TextareaInput
        label={labels.dashboardAlert}
        name="dashboardAlert"
        value={values.dashboardAlert}
        hint={t('options.dashboard_alert_hint')}
        errors={errors.dashboardAlert}
        disabled={!canEdit}
        rows={3}
        onChange={(dashboardAlert) => setValues((current) => ({ ...current, dashboardAlert }))}
      />
      <SelectInput
        label={labels.brokerVersion}
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
    </VersionedSettingsForm>
  );
}
