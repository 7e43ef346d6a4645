import { useTranslation } from 'react-i18next';
import { saveSettingsGroup, type SettingsGroup } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import {
  BRAINTREE_ENVIRONMENTS,
  PAYMENT_PROVIDERS,
  PRIVATE_KEY_MAX,
  SETTING_KEYS,
  checkPayment,
  paymentDraft,
  type PaymentDraft,
} from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

// Every field of the form but the saved key's mask, which is shown, never edited.
type PaymentField = Exclude<keyof PaymentDraft, 'savedPrivateKey'>;
const KEYS = [SETTING_KEYS.braintreeConfig, SETTING_KEYS.activePsp];

const valuesOf = (group: SettingsGroup): PaymentDraft =>
  paymentDraft(
    group.values[SETTING_KEYS.activePsp] ?? null,
    group.values[SETTING_KEYS.braintreeConfig] ?? null,
  );

const conflictRows = (loaded: SettingsGroup, mine: PaymentDraft, saved: SettingsGroup) =>
  conflictRowsOf<PaymentField>(
    ['active_psp', 'environment', 'merchantId', 'publicKey'],
    valuesOf(loaded),
    mine,
    valuesOf(saved),
  );

/**
 * The payment provider and its access, edited on `record-edit`: saved on top of the version
 * read, so a save another admin made meanwhile shows as a conflict instead of being overwritten.
 */
export function PaymentTab() {
  const { t } = useTranslation('tenant_settings');
  const { accountIndex, canEdit } = useSettingsAccount();
  const labels = {
    active_psp: t('payment.active_psp'),
    environment: t('payment.environment'),
    merchantId: t('payment.merchant_id'),
    publicKey: t('payment.public_key'),
    privateKey: t('payment.private_key'),
  };
  const form = useSettingsEdit({
    query: settingsQueries.group(accountIndex, KEYS),
    name: 'group',
    valuesOf,
    emptyValues: () => paymentDraft(null, null),
    validate: (values: PaymentDraft) => {
      const checked = checkPayment(values, labels);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    // The config first: a provider is never active without the access it needs.
    send: (input, version) =>
      saveSettingsGroup(
        accountIndex,
        [
          { key: SETTING_KEYS.braintreeConfig, value: input.braintree_config, isSensitive: true },
          { key: SETTING_KEYS.activePsp, value: input.active_psp },
        ],
        version,
      ),
    conflictRows,
  });
  const { values, setValues, errors } = form;
  const braintree = values.active_psp === 'braintree';
  // What every field of this form takes: its label, value, errors and change.
  const bind = <K extends PaymentField>(field: K) => ({
    label: labels[field],
    name: field,
    value: values[field],
    errors: errors[field],
    disabled: !canEdit,
    onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
  });
  return (
    <VersionedSettingsForm
      form={form}
      title={t('payment.title')}
      intro={t('payment.intro')}
      canEdit={canEdit}
      label={(field: PaymentField) => labels[field]}
      shown={(field, value) =>
        field === 'active_psp'
          ? t(`payment.providers.${value as 'none'}`, value)
          : field === 'environment'
            ? t(`payment.environments.${value as 'sandbox'}`, value)
            : value
      }
    >
      {/* The provider, then the environment: each a list of its known values. */}
      {(
        [
          {
            field: 'active_psp',
            required: true,
            options: PAYMENT_PROVIDERS.map((value) => ({
              value,
              label: t(`payment.providers.${value}`),
            })),
          },
          {
            field: 'environment',
            required: undefined,
            options: BRAINTREE_ENVIRONMENTS.map((value) => ({
              value,
              label: t(`payment.environments.${value}`),
            })),
          },
        ] as const
      ).map(({ field, required, options }) => (
        <SelectInput key={field} {...bind(field)} required={required} options={options} />
      ))}
      {/* Braintree's access: needed only while Braintree is the provider. */}
      {(['merchantId', 'publicKey'] as const).map((field) => (
        <TextInput key={field} {...bind(field)} required={braintree} autoComplete="off" />
      ))}
      {/* The secret: typed, never shown back (the service answers it masked); empty keeps it. */}
      <TextInput
        {...bind('privateKey')}
        type="password"
        autoComplete="new-password"
        maxLength={PRIVATE_KEY_MAX}
        hint={
          values.savedPrivateKey
            ? t('payment.private_key_saved', { mask: values.savedPrivateKey })
            : t('payment.private_key_none')
        }
      />
    </VersionedSettingsForm>
  );
}
