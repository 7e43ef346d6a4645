import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';

/** What the dialog says; the caller's namespace provides the texts (ui stays small). */
export interface ProductChooserTexts {
  title: string;
  label: string;
  submit: string;
  cancel: string;
  loading: string;
  /** No product has an active version. */
  none: string;
  /** The spec's forms.messages.error, when the products cannot be read. */
  error: string;
  retry: string;
}

/** Products that sell now: those with an active version (only an active version sells). */
export const sellsNow = (product: Product) =>
  (product.versions ?? []).some((version) => version.status === 'active');

/** Module-level, so that the query's `select` keeps its result between renders. */
const onSale = (products: Product[]) => products.filter(sellsNow);

/**
 * Asks which product to sell (a policy, an application): the tenant's products with an active
 * version, by name. `onChoose` gets the product; the caller goes on from there.
 */
export function ProductChooserDialog({
  accountIndex,
  texts,
  onChoose,
  onDismiss,
}: {
  accountIndex: number;
  texts: ProductChooserTexts;
  onChoose: (product: Product) => void;
  onDismiss: () => void;
}) {
  // The same list as the filters', narrowed to what is on sale now.
  const query = useQuery({ ...productQueries.list(accountIndex), select: onSale });
  const state = loadStateOf(query);
  const retry = () => void query.refetch();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState(false);
  const products = state.kind === 'ready' ? state.value : [];
  const formRef = useRef<HTMLFormElement>(null);
  // The dialog focuses its first field when it opens; the choice arrives later, so it takes the
  // focus then (or the retry button after a failure).
  useEffect(() => {
    if (state.kind !== 'loading')
      formRef.current?.querySelector<HTMLElement>('select, button')?.focus();
  }, [state.kind]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const product = products.find((p) => String(p.id) === chosen);
    if (!product) {
      setError(true);
      return;
    }
    onChoose(product);
  };

  return (
    <FormDialog title={texts.title} busy={false} onDismiss={onDismiss}>
      <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
        {state.kind === 'loading' ? <Spinner label={texts.loading} /> : null}
        {state.kind === 'failed' ? (
          <>
            <AlertBar tone="danger" dismissible={false}>
              {texts.error}
            </AlertBar>
            <Button variant="secondary" className="self-start" onClick={retry}>
              {texts.retry}
            </Button>
          </>
        ) : null}
        {state.kind === 'ready' && products.length === 0 ? (
          <p className="text-sm text-slate-700">{texts.none}</p>
        ) : null}
        {products.length ? (
          <SelectInput
            name="product"
            label={texts.label}
            required
            value={chosen}
            errors={
              error && !chosen ? [message('messages.fieldRequired', { field: texts.label })] : []
            }
            options={products.map((p) => ({ value: String(p.id), label: p.name }))}
            onChange={(value) => {
              setChosen(value);
              setError(false);
            }}
          />
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onDismiss}>
            {texts.cancel}
          </Button>
          <Button type="submit" disabled={!products.length}>
            {texts.submit}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
