import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import type { PaymentMethod } from '#client/api/payments-client.ts';

/**
 * How a payment method reads in a list or a choice: its kind and what tells it apart (a masked
 * IBAN, a card's brand and last four digits), in the user's language. Shared by the customer's
 * payment tab and the policy's payment method.
 */
export function usePaymentMethodText(): (method: PaymentMethod) => string {
  const { t } = useTranslation('payment_methods');
  return useCallback(
    (method: PaymentMethod) => {
      if (method.sepa) {
        return t('describe.sepa', {
          iban: method.sepa.ibanMasked,
          bank: method.sepa.bankName ?? method.sepa.bic ?? '',
        });
      }
      if (method.card) {
        return t('describe.card', {
          brand: t(`brands.${method.card.brand}`),
          last4: method.card.last4,
          month: String(method.card.expiryMonth).padStart(2, '0'),
          year: method.card.expiryYear,
        });
      }
      return t('kinds.invoice');
    },
    [t],
  );
}

/** What the signed-in account may do with payment methods and bank accounts (hides buttons only). */
export function usePaymentAbilities() {
  const { accountIndex, can } = useAccountAccess();
  // The payment service also takes the legacy finance form (`eis.finance.*`).
  const may = (resource: string, action: string) =>
    can(`payment-management.${resource}.${action}`) || can(`eis.finance.${resource}.${action}`);
  return {
    accountIndex,
    canViewMethods: may('payment-methods', 'view'),
    canCreateMethods: may('payment-methods', 'create'),
    canViewBankAccounts: may('bank-accounts', 'view'),
    canCreateBankAccounts: may('bank-accounts', 'create'),
  };
}
