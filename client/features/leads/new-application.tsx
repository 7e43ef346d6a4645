import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Product } from '#client/api/products-client.ts';
import { Button } from '#client/ui/button.tsx';
import { ProductChooserDialog } from '#client/entities/product/product-chooser-dialog.tsx';
import type { LeadAbilities } from './use-lead-abilities.ts';

/** The version of a product that is on sale: applications are made for it. */
const activeVersionOf = (product: Product) =>
  product.versions?.find((version) => version.status === 'active') ?? null;

/**
 * "New application": pick a product on sale in the shared product chooser (the one of "New
 * policy"), then fill in its application form (the route
 * /leads/create-application/{productId}/{productVersionId}).
 */
export function NewApplicationButton({ abilities }: { abilities: LeadAbilities }) {
  const { t } = useTranslation('leads');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!abilities.canCreate || !abilities.canViewProducts) return null;
  const { accountIndex } = abilities;
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('application.new')}</Button>
      {open ? (
        <ProductChooserDialog
          accountIndex={accountIndex}
          texts={{
            title: t('application.choose_product'),
            label: t('application.product'),
            submit: t('application.continue'),
            cancel: t('actions.cancel'),
            loading: t('loading'),
            none: t('application.no_products'),
            error: t('errors.products_failed'),
            retry: t('actions.retry'),
          }}
          onDismiss={() => setOpen(false)}
          onChoose={(product) => {
            // The chooser offers only products with an active version.
            const version = activeVersionOf(product);
            if (version) {
              void navigate(
                `/u/${accountIndex}/leads/create-application/${product.id}/${version.id}`,
              );
            }
          }}
        />
      ) : null}
    </>
  );
}
