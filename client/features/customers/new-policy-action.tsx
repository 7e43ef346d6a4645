import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Button } from '#client/ui/button.tsx';
import { ProductChooserDialog } from '#client/entities/product/product-chooser-dialog.tsx';

/**
 * "New policy" on a customer: asks for the product (one with an active version) and opens the
 * sale, /customers/{code}/create-policy/{productId}. Shown with the permissions of that route
 * (the service checks the sale itself).
 */
export function NewPolicyAction({ customerCode }: { customerCode: string }) {
  const { t } = useTranslation('customers');
  const { accountIndex, can } = useAccountAccess();
  const navigate = useNavigate();
  const [choosing, setChoosing] = useState(false);
  const allowed =
    (can('policy-management.policies.create') && can('policy-management.products.view')) ||
    (can('eis.policies.create') && can('eis.products.view'));
  if (!allowed) return null;
  return (
    <>
      <Button className="self-start" onClick={() => setChoosing(true)}>
        {t('new_policy.action')}
      </Button>
      {choosing ? (
        <ProductChooserDialog
          accountIndex={accountIndex}
          texts={{
            title: t('new_policy.title'),
            label: t('new_policy.product'),
            submit: t('new_policy.continue'),
            cancel: t('new_policy.cancel'),
            loading: t('new_policy.loading'),
            none: t('new_policy.none'),
            error: t('forms.messages.error'),
            retry: t('actions.retry'),
          }}
          onDismiss={() => setChoosing(false)}
          onChoose={(product) =>
            void navigate(
              `/u/${accountIndex}/customers/${encodeURIComponent(customerCode)}/create-policy/${product.id}`,
            )
          }
        />
      ) : null}
    </>
  );
}
