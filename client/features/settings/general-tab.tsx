import { useTranslation } from 'react-i18next';
import { saveGeneral } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import type { GeneralSettings } from '#client/api/tenant-client.ts';
import { cacheGeneralSettings } from '#client/i18n/language.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { setDateDisplay } from '#client/ui/form/dates.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { dateDisplayOf } from '#common/date-display.ts';
import {
  CURRENCIES,
  DATE_FORMATS,
  HOUR_FORMATS,
  checkGeneral,
  type GeneralLabels,
} from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

/** The general settings' fields, what the form edits (the version stamps stay on the record). */
type GeneralField = keyof GeneralLabels;
type GeneralValues = Record<GeneralField, string>;
const GENERAL_FIELDS: readonly GeneralField[] = [
  'time_zone',
  'language',
  'currency',
  'format_hours',
  'format_dates',
];

const valuesOf = (general: GeneralSettings): GeneralValues => ({
  time_zone: general.time_zone,
  language: general.language,
  currency: general.currency,
  format_hours: general.format_hours,
  format_dates: general.format_dates,
});

const conflictRows = (loaded: GeneralSettings, mine: GeneralValues, saved: GeneralSettings) =>
  conflictRowsOf(GENERAL_FIELDS, valuesOf(loaded), mine, valuesOf(saved));

// The time zones this browser knows; the tenant's own stays selectable even if it is not one.
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

const withCurrent = (list: readonly string[], current: string) =>
  (current && !list.includes(current) ? [current, ...list] : list).map((value) => ({
    value,
    label: value,
  }));

/**
 * The general settings, edited on `record-edit`: saved on top of the version read, so a save
 * another admin made meanwhile shows as a conflict instead of being overwritten.
 */
export function GeneralTab() {
  const { t } = useTranslation('tenant_settings');
  const { accountIndex, canEdit } = useSettingsAccount();
  const labels: GeneralLabels = {
    time_zone: t('general.time_zone'),
    language: t('general.language'),
    currency: t('general.currency'),
    format_hours: t('general.format_hours'),
    format_dates: t('general.format_dates'),
  };
  const form = useSettingsEdit({
    query: settingsQueries.general(accountIndex),
    name: 'general',
    valuesOf,
    emptyValues: (): GeneralValues => ({
      time_zone: '',
      language: '',
      currency: '',
      format_hours: '',
      format_dates: '',
    }),
    validate: (values: GeneralValues) => {
      const checked = checkGeneral(values, labels);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    send: async (input, version) =>
      (await saveGeneral(accountIndex, { ...input, version })).general,
    conflictRows,
    // The one cache of the general settings (spec: cached in local storage); the dates of every
    // screen follow at once.
    onSaved: (saved) => {
      cacheGeneralSettings(saved);
      setDateDisplay(dateDisplayOf(saved));
    },
  });
  const { values, setValues, errors } = form;
  const field = (key: GeneralField) => ({
    label: labels[key],
    name: key,
    value: values[key],
    onChange: (value: string) => setValues((current) => ({ ...current, [key]: value })),
    errors: errors[key],
    required: true,
    disabled: !canEdit,
  });

  return (
    <VersionedSettingsForm
      form={form}
      title={t('general.title')}
      intro={t('general.intro')}
      canEdit={canEdit}
      label={(key: GeneralField) => labels[key]}
      shown={(key, value) =>
        key === 'language' ? t(`general.languages.${value as 'de'}`, value) : value
      }
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
    </VersionedSettingsForm>
  );
}
