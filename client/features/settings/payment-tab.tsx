import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { saveTenantSetting, settingValue } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import {
  BRAINTREE_ENVIRONMENTS,
  PAYMENT_PROVIDERS,
  SETTING_KEYS,
  checkPayment,
  paymentDraft,
  type PaymentDraft,
} from './settings-forms.ts';
import { QueryTab, SettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsForm } from './use-settings-tab.ts';

export function PaymentTab() {
  const { accountIndex } = useSettingsAccount();
  const query = useQuery({
    ...settingsQueries.values(accountIndex, [SETTING_KEYS.activePsp, SETTING_KEYS.braintreeConfig]),
    select: (values) =>
      paymentDraft(
        settingValue(values, SETTING_KEYS.activePsp),
        settingValue(values, SETTING_KEYS.braintreeConfig),
      ),
  });
  return (
    <QueryTab
      query={query}
      render={(draft, account) => <PaymentForm initial={draft} {...account} />}
    />
  );
}

function PaymentForm({
  initial,
  accountIndex,
  canEdit,
}: {
  initial: PaymentDraft;
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation('tenant_settings');
  const { values, setValues, errors, setErrors, saving, error, save } = useSettingsForm(initial);
  const labels = {
    active_psp: t('payment.active_psp'),
    merchantId: t('payment.merchant_id'),
    publicKey: t('payment.public_key'),
  };
  const braintree = values.active_psp === 'braintree';
  const set = (key: keyof PaymentDraft) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  return (
    <SettingsForm
      title={t('payment.title')}
      intro={t('payment.intro')}
      saving={saving}
      error={error}
      canEdit={canEdit}
      onSubmit={() => {
        const checked = checkPayment(values, labels);
        setErrors(checked.ok ? {} : checked.errors);
        if (!checked.ok) return;
        void save(async () => {
          // The config first: a provider is never active without the access it needs.
          await saveTenantSetting(accountIndex, {
            key: SETTING_KEYS.braintreeConfig,
            value: checked.value.braintree_config,
            isSensitive: true,
          });
          await saveTenantSetting(accountIndex, {
            key: SETTING_KEYS.activePsp,
            value: checked.value.active_psp,
          });
        });
      }}
    >
      <SelectInput
        label={labels.active_psp}
        name="active_psp"
        value={values.active_psp}
        required
        errors={errors.active_psp}
        disabled={!canEdit}
        options={PAYMENT_PROVIDERS.map((value) => ({
          value,
          label: t(`payment.providers.${value}`),
        }))}
        onChange={set('active_psp')}
      />
      <SelectInput
        label={t('payment.environment')}
        name="environment"
        value={values.environment}
        disabled={!canEdit}
        options={BRAINTREE_ENVIRONMENTS.map((value) => ({
          value,
          label: t(`payment.environments.${value}`),
        }))}
        onChange={set('environment')}
      />
      <TextInput
        label={labels.merchantId}
        name="merchantId"
        value={values.merchantId}
        required={braintree}
        errors={errors.merchantId}
        disabled={!canEdit}
        autoComplete="off"
        onChange={set('merchantId')}
      />
      <TextInput
        label={labels.publicKey}
        name="publicKey"
        value={values.publicKey}
        required={braintree}
        errors={errors.publicKey}
        disabled={!canEdit}
        autoComplete="off"
        onChange={set('publicKey')}
      />
    </SettingsForm>
  );
}
