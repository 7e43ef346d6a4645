import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { setPolicyPaymentMethod, type PolicyPaymentMethod } from '#client/api/payments-client.ts';
import { paymentQueries } from '#client/api/payments-queries.ts';
import { Button } from '#client/ui/button.tsx';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { formatDate } from '#client/ui/form/dates.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import {
  usePaymentAbilities,
  usePaymentMethodText,
} from '#client/entities/payment/payment-method-text.ts';
import { serverPaymentErrors } from '#client/entities/payment/payment-method-form.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { setByText } from './payment-method-set-by.ts';

/**
 * The method a policy pays with (issue 18) and, with the create permission, a choice among its
 * customer's methods to change it. The earlier methods stay listed: the service keeps them.
 */
export function PolicyPaymentMethodSection({
  policyCode,
  accountCode,
}: {
  policyCode: string;
  accountCode: string | null;
}) {
  const { t } = useTranslation('payment_methods');
  const abilities = usePaymentAbilities();
  const { accountIndex } = abilities;
  const describe = usePaymentMethodText();
  const queryClient = useQueryClient();
  const history = useQuery({
    ...paymentQueries.policy(accountIndex, policyCode),
    enabled: abilities.canViewMethods,
  });
  const methods = useQuery({
    ...paymentQueries.methods(accountIndex, accountCode ?? ''),
    enabled: abilities.canCreateMethods && accountCode !== null,
  });
  const current = history.data?.find((entry) => entry.isCurrent) ?? null;
  const earlier = history.data?.filter((entry) => !entry.isCurrent) ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const outcome = useSaveOutcome<PolicyPaymentMethod>({
    fieldErrors: serverPaymentErrors,
    failure: () => t('policy.failed'),
    onSaved: () => {
      setChosen(null);
      void queryClient.invalidateQueries({ queryKey: paymentQueries.all(accountIndex) });
    },
    savedMessage: () => t('policy.saved'),
  });
  const save = useMutation({
    mutationFn: (paymentMethodCode: string) =>
      setPolicyPaymentMethod(accountIndex, { policyCode, paymentMethodCode }).then(
        (r) => r.policyPaymentMethod,
      ),
    onSuccess: outcome.onSaved,
    onError: (error) => {
      const refused = outcome.refusal(error);
      if ('errors' in refused) setErrors(refused.errors);
      else setFailure(refused.failure);
    },
  });

  if (!abilities.canViewMethods) return null;
  const selected = chosen ?? current?.paymentMethodCode ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || !selected) return;
    setErrors({});
    setFailure(null);
    save.mutate(selected);
  };

  return (
    <section aria-labelledby="payment-method-heading" className="flex flex-col gap-3">
      <h2 id="payment-method-heading" className="text-lg font-semibold text-slate-900">
        {t('policy.title')}
      </h2>
      {history.isPending ? (
        <p className="text-sm text-slate-700">{t('loading')}</p>
      ) : history.isError ? (
        <p className="text-sm text-red-700">{t('load_failed')}</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-700">{t('policy.current')}</dt>
          <dd data-testid="policy-payment-method">
            {current?.paymentMethod ? (
              <>
                {describe(current.paymentMethod)}{' '}
                <span className="text-slate-600">
                  (
                  {(({ key, name }) => t(key, { date: formatDate(current.validFrom), name }))(
                    setByText(current),
                  )}
                  )
                </span>
              </>
            ) : (
              t('policy.none')
            )}
          </dd>
          {earlier.length ? (
            <>
              <dt className="font-medium text-slate-700">{t('policy.history')}</dt>
              <dd>
                <ul>
                  {earlier.map((entry) => (
                    <li key={entry.code}>
                      {entry.paymentMethod ? describe(entry.paymentMethod) : ''}{' '}
                      <span className="text-slate-600">
                        ({t('policy.until', { date: formatDate(entry.validTo) })})
                      </span>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
      )}
      {abilities.canCreateMethods && accountCode ? (
        methods.data && methods.data.length === 0 ? (
          <p className="text-sm text-slate-700">{t('policy.no_customer_methods')}</p>
        ) : (
          <form noValidate className="flex flex-wrap items-end gap-3" onSubmit={submit}>
            <div className="min-w-72 flex-1">
              <SelectInput
                label={t('policy.change')}
                name="paymentMethodCode"
                value={selected}
                errors={errors.paymentMethodCode}
                disabled={save.isPending || !methods.data}
                onChange={setChosen}
                options={(methods.data ?? []).map((m) => ({ value: m.code, label: describe(m) }))}
              />
            </div>
            <Button
              type="submit"
              disabled={save.isPending || !selected || selected === current?.paymentMethodCode}
            >
              {save.isPending ? t('policy.saving') : t('policy.save')}
            </Button>
          </form>
        )
      ) : null}
      {failure ? (
        <AlertBar tone="danger" onDismiss={() => setFailure(null)}>
          {failure}
        </AlertBar>
      ) : null}
    </section>
  );
}
