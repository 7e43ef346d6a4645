import { useTranslation } from 'react-i18next';
import { getGeneral, type GeneralSettings } from '#client/api/tenant-client.ts';
import { saveGeneral } from '#client/api/settings-client.ts';
import { cacheGeneralSettings } from '#client/i18n/language.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';
import {
  CURRENCIES,
  DATE_FORMATS,
  HOUR_FORMATS,
  checkGeneral,
  type GeneralLabels,
} from './settings-forms.ts';
import { SettingsForm, SettingsTab } from './tab-frame.tsx';
import { useSettingsForm } from './use-settings-tab.ts';

const loadGeneral = (accountIndex: number, signal: AbortSignal) =>
  getGeneral(accountIndex, signal).then(({ general }) => general);

// The time zones this browser knows; the tenant's own stays selectable even if it is not one.
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

const withCurrent = (list: readonly string[], current: string) =>
  (current && !list.includes(current) ? [current, ...list] : list).map((value) => ({
    value,
    label: value,
  }));

export function GeneralTab() {
  return (
    <SettingsTab
      load={loadGeneral}
      render={(general, account) => <GeneralForm initial={general} {...account} />}
    />
  );
}

function GeneralForm({
  initial,
  accountIndex,
  canEdit,
}: {
  initial: GeneralSettings;
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation('tenant_settings');
  const { values, setValues, errors, setErrors, saving, error, save } = useSettingsForm(initial);
  const labels: GeneralLabels = {
    time_zone: t('general.time_zone'),
    language: t('general.language'),
    currency: t('general.currency'),
    format_hours: t('general.format_hours'),
    format_dates: t('general.format_dates'),
  };
  const set = (key: keyof GeneralSettings) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  const field = (key: keyof GeneralSettings) => ({
    label: labels[key],
    name: key,
    value: values[key],
    onChange: set(key),
    errors: errors[key],
    required: true,
    disabled: !canEdit,
  });

  return (
    <SettingsForm
      title={t('general.title')}
      intro={t('general.intro')}
      saving={saving}
      error={error}
      canEdit={canEdit}
      onSubmit={() => {
        const checked = checkGeneral(values, labels);
        setErrors(checked.ok ? {} : checked.errors);
        if (!checked.ok) return;
        void save(async () => {
          const { general } = await saveGeneral(accountIndex, checked.value);
          // The one cache of the general settings (spec: cached in local storage).
          cacheGeneralSettings(general);
          setValues(general);
        });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectInput {...field('time_zone')} options={withCurrent(TIME_ZONES, values.time_zone)} />
        <SelectInput
          {...field('language')}
          options={(['de', 'en', 'pl'] as const).map((value) => ({
            value,
            label: t(`general.languages.${value}`),
          }))}
        />
        <SelectInput {...field('currency')} options={withCurrent(CURRENCIES, values.currency)} />
        <SelectInput
          {...field('format_hours')}
          options={withCurrent(HOUR_FORMATS, values.format_hours)}
        />
        <SelectInput
          {...field('format_dates')}
          options={withCurrent(DATE_FORMATS, values.format_dates)}
        />
      </div>
    </SettingsForm>
  );
}
