import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { listPolicies, type Policy } from '#client/api/policies-client.ts';
import { AsyncCombobox } from '#client/ui/async-combobox.tsx';
import { partyName } from '#common/party-name.ts';

/** Spec: the policy picker asks for 10 policies at a time. */
export const POLICY_PICKER_PAGE_SIZE = 10;

/**
 * The policy of a new claim: an asynchronous search over the tenant's policies (number, holder,
 * product), 10 at a time, each shown with its number, holder and product.
 */
export function PolicyPicker({
  accountIndex,
  value,
  onChange,
  disabled,
  error,
}: {
  accountIndex: number;
  value: Policy | null;
  onChange: (policy: Policy | null) => void;
  disabled: boolean;
  error: string | undefined;
}) {
  const { t } = useTranslation('claims');
  const loadPage = useCallback(
    (search: string, pageToken: string | null, signal: AbortSignal) =>
      listPolicies(accountIndex, { pageToken, search, pageSize: POLICY_PICKER_PAGE_SIZE }, signal),
    [accountIndex],
  );
  return (
    <AsyncCombobox<Policy>
      value={value}
      onChange={onChange}
      loadPage={loadPage}
      keyOf={(p) => p.code}
      labelOf={(p) => p.policyNumber}
      detailOf={(p) =>
        [partyName(p.holder) || p.accountCode, p.productName].filter(Boolean).join(' · ')
      }
      texts={{
        label: t('fields.policy'),
        placeholder: t('policy_picker.placeholder'),
        open: t('policy_picker.open'),
        loading: t('policy_picker.loading'),
        noOptions: t('policy_picker.no_options'),
        loadMore: t('policy_picker.load_more'),
        clear: t('policy_picker.clear'),
        error: t('forms.messages.error'),
      }}
      name="policy"
      required
      disabled={disabled}
      error={error}
      testId="policy-options"
    />
  );
}
