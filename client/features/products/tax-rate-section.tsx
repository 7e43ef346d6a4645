import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getProductTaxRate,
  productTaxRateKey,
  setProductTaxRate,
} from '#client/api/product-tax-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { historyKey } from '#client/entities/history/history-tab.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { TextField } from '#client/ui/text-field.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useFailureMessage } from './page-parts.tsx';
import { parsePercent, percentText, percentInput } from './tax-rate.ts';

/**
 * The insurance tax of a product (issue 18): new invoices of its policies and its product
 * invoices are taxed at it. Shown to every reader of the product, in the user's language;
 * changed by who may edit the product.
 */
export function TaxRateSection({
  accountIndex,
  productId,
  canEdit,
}: {
  accountIndex: number;
  productId: number;
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation('products');
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const key = productTaxRateKey(accountIndex, productId);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getProductTaxRate(accountIndex, productId, signal),
  });
  const state = loadStateOf(query);
  const [draft, setDraft] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (bp: number) => setProductTaxRate(accountIndex, productId, bp),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      // The change is an event of the product's version: its history reads it again.
      void queryClient.invalidateQueries({ queryKey: historyKey(accountIndex) });
      setDraft(null);
      toast({
        message: t('tax_rate.saved', { rate: percentText(saved.taxRateBp, i18n.language) }),
        tone: 'success',
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft === null || save.isPending) return;
    const bp = parsePercent(draft, i18n.language);
    if (bp === null) {
      setFieldError(t('tax_rate.invalid'));
      return;
    }
    setFieldError(undefined);
    save.mutate(bp);
  };

  const startEditing = (bp: number) => {
    save.reset();
    setFieldError(undefined);
    setDraft(percentInput(bp, i18n.language));
  };

  return (
    <section aria-labelledby="tax-rate-heading" className="flex flex-col gap-2">
      <h2 id="tax-rate-heading" className="text-lg font-semibold text-slate-900">
        {t('tax_rate.title')}
      </h2>
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <AlertBar tone="danger" dismissible={false}>
          {t('tax_rate.load_failed')}
        </AlertBar>
      ) : null}
      {state.kind === 'ready' && draft === null ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-slate-900" data-testid="tax-rate-value">
            <span className="font-medium">{percentText(state.value.taxRateBp, i18n.language)}</span>
            {state.value.isDefault ? (
              <span className="text-slate-700"> ({t('tax_rate.default')})</span>
            ) : null}
          </p>
          {canEdit ? (
            <Button variant="secondary" onClick={() => startEditing(state.value.taxRateBp)}>
              {t('tax_rate.edit')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {state.kind === 'ready' && draft !== null ? (
        <form className="flex max-w-sm flex-col gap-3" onSubmit={submit} noValidate>
          <TextField
            label={t('tax_rate.label')}
            hint={t('tax_rate.hint')}
            inputMode="decimal"
            autoComplete="off"
            value={draft}
            error={fieldError}
            onChange={(event) => setDraft(event.target.value)}
          />
          {save.isError ? (
            <AlertBar tone="danger" dismissible={false}>
              {failureMessage(save.error)}
            </AlertBar>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              {t('tax_rate.save')}
            </Button>
            <Button variant="ghost" onClick={() => setDraft(null)} disabled={save.isPending}>
              {t('tax_rate.cancel')}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
