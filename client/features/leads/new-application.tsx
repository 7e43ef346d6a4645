import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { listProducts, type Product } from '#client/api/products-client.ts';
import { listAll } from '#client/api/tenant-admin-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import type { LeadAbilities } from './use-lead-abilities.ts';

/** The version of a product that is on sale, if any: applications are made for it. */
const activeVersionOf = (product: Product) =>
  product.versions?.find((version) => version.status === 'active') ?? null;

/**
 * "New application": pick a product on sale, then fill in its application form (the route
 * /leads/create-application/{productId}/{productVersionId}).
 */
export function NewApplicationButton({ abilities }: { abilities: LeadAbilities }) {
  const { t } = useTranslation('leads');
  const [open, setOpen] = useState(false);
  if (!abilities.canCreate || !abilities.canViewProducts) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('application.new')}</Button>
      {open ? (
        <ProductChoice accountIndex={abilities.accountIndex} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}

function ProductChoice({ accountIndex, onClose }: { accountIndex: number; onClose: () => void }) {
  const { t } = useTranslation('leads');
  const navigate = useNavigate();
  const [products, setProducts] = useState<Product[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [chosen, setChosen] = useState('');
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    listAll(
      (page, signal) => listProducts(accountIndex, { page }, signal ?? controller.signal),
      controller.signal,
    )
      .then((all) => setProducts(all.filter((p) => activeVersionOf(p) !== null)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('products failed', error);
        setFailed(true);
      });
    return () => controller.abort();
  }, [accountIndex]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const product = products?.find((p) => String(p.id) === chosen);
    const version = product ? activeVersionOf(product) : null;
    if (!product || !version) {
      setMissing(true);
      return;
    }
    void navigate(`/u/${accountIndex}/leads/create-application/${product.id}/${version.id}`);
  };

  return (
    <FormDialog title={t('application.choose_product')} busy={false} onDismiss={onClose}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {failed ? (
          <AlertBar tone="danger" dismissible={false}>
            {t('errors.products_failed')}
          </AlertBar>
        ) : products === null ? (
          <Spinner label={t('loading')} />
        ) : (
          <SelectInput
            name="product"
            label={t('application.product')}
            value={chosen}
            required
            errors={missing ? ['leads:application.errors.product_required'] : undefined}
            options={products.map((p) => ({ value: String(p.id), label: p.name }))}
            onChange={(value) => {
              setChosen(value);
              setMissing(false);
            }}
          />
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={products === null}>
            {t('application.continue')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
