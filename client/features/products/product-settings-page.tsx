import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SUMMARY_LABEL_MAX_LENGTH,
  cssProblem,
  productSettingKey,
} from '#common/product-settings.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries, type ProductSettings } from '#client/api/products-queries.ts';
import { saveTenantSetting } from '#client/api/settings-client.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { useToast } from '#client/ui/toast.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { Loading, useFailureMessage, productLoadTexts } from './page-parts.tsx';
import { useProductAbilities } from './use-product-abilities.ts';

function ProductSettingsForm({
  accountIndex,
  product,
  initial,
  canEdit,
}: {
  accountIndex: number;
  product: Product;
  initial: ProductSettings;
  canEdit: boolean;
}) {
  const { t } = useTranslation('products');
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ css?: string[]; summaryLabel?: string[] }>({});

  const save = async () => {
    const problem = cssProblem(values.css);
    const next = {
      css: problem
        ? [t(`settings.${problem}` as 'settings.css_markup', { max: 10_000 })]
        : undefined,
      summaryLabel:
        values.summaryLabel.trim().length > SUMMARY_LABEL_MAX_LENGTH
          ? [t('settings.too_long', { max: SUMMARY_LABEL_MAX_LENGTH })]
          : undefined,
    };
    setErrors(next);
    setFailure(null);
    if (next.css || next.summaryLabel) return;
    setBusy(true);
    try {
      await saveTenantSetting(accountIndex, {
        key: productSettingKey('bookingFunnelCss', product.slug),
        value: values.css.trim() ? values.css : null,
      });
      await saveTenantSetting(accountIndex, {
        key: productSettingKey('summaryLabel', product.slug),
        value: values.summaryLabel.trim() || null,
      });
      toast({ message: t('settings.saved', { product: product.name }), tone: 'success' });
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby={`settings-${product.id}`}
      className="flex flex-col gap-3 rounded-md border border-slate-200 p-4"
    >
      <h2 id={`settings-${product.id}`} className="font-semibold text-slate-900">
        {product.name} <span className="font-normal text-slate-600">({product.slug})</span>
      </h2>
      <form
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && canEdit) void save();
        }}
      >
        <TextareaInput
          label={t('settings.css')}
          value={values.css}
          onChange={(css) => setValues((v) => ({ ...v, css }))}
          hint={t('settings.css_hint')}
          errors={errors.css}
          disabled={!canEdit}
          rows={4}
        />
        <TextInput
          label={t('settings.summary_label')}
          value={values.summaryLabel}
          onChange={(summaryLabel) => setValues((v) => ({ ...v, summaryLabel }))}
          hint={t('settings.summary_label_hint')}
          errors={errors.summaryLabel}
          disabled={!canEdit}
        />
        {failure ? <Alert tone="danger">{failure}</Alert> : null}
        {canEdit ? (
          <div>
            <Button
              type="submit"
              disabled={busy}
              aria-label={t('settings.save_named', { product: product.name })}
            >
              {busy ? t('actions.saving') : t('actions.save')}
            </Button>
          </div>
        ) : null}
      </form>
    </section>
  );
}

/**
 * Product settings (spec route /management/product-settings): per product the booking funnel's
 * CSS and its summary heading, kept as the tenant settings bf_custom_css_{slug} and
 * summary_label_setting_{slug}.
 */
export default function ProductSettingsPage() {
  const { t } = useTranslation('products');
  const { accountIndex, canEditProductSettings } = useProductAbilities();
  usePageTitle(t('settings.title'));
  const query = useQuery(productQueries.settings(accountIndex));
  const state = loadStateOf(query);

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('settings.title')}</h1>
      <p className="text-slate-700">{t('settings.intro')}</p>
      {canEditProductSettings ? null : <p className="text-slate-700">{t('settings.read_only')}</p>}
      {state.kind === 'loading' ? <Loading /> : null}
      {state.kind === 'failed' ? (
        <LoadProblem
          error={state.error}
          {...productLoadTexts(t)}
          onRetry={() => void query.refetch()}
        />
      ) : null}
      {state.kind === 'ready' && state.value.length === 0 ? (
        <p className="text-slate-700">{t('settings.empty')}</p>
      ) : null}
      {state.kind === 'ready'
        ? state.value.map(({ product, settings }) => (
            <ProductSettingsForm
              key={product.id}
              accountIndex={accountIndex}
              product={product}
              initial={settings}
              canEdit={canEditProductSettings}
            />
          ))
        : null}
    </div>
  );
}
