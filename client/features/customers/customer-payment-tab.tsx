import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { BankAccount, PaymentMethod } from '#client/api/payments-client.ts';
import { paymentQueries } from '#client/api/payments-queries.ts';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDate } from '#client/ui/form/dates.ts';
import {
  usePaymentAbilities,
  usePaymentMethodText,
} from '#client/entities/payment/payment-method-text.ts';
import { AddBankAccountDialog } from './add-bank-account-dialog.tsx';
import { AddPaymentMethodDialog } from './add-payment-method-dialog.tsx';

/**
 * The customer's payment methods and bank accounts (issue 18), IBANs masked, with the dialog
 * that adds a method. Shown only with the payment methods' view permission.
 */
export function CustomerPaymentTab({ accountCode, name }: { accountCode: string; name: string }) {
  const { t } = useTranslation('payment_methods');
  const abilities = usePaymentAbilities();
  const { accountIndex } = abilities;
  const describe = usePaymentMethodText();
  const [adding, setAdding] = useState<'method' | 'bank-account' | null>(null);
  const methods = useQuery(paymentQueries.methods(accountIndex, accountCode));
  const banks = useQuery({
    ...paymentQueries.bankAccounts(accountIndex, accountCode),
    enabled: abilities.canViewBankAccounts,
  });

  if (methods.isPending) return <p className="py-6 text-sm text-slate-700">{t('loading')}</p>;
  if (methods.isError) return <p className="py-6 text-sm text-red-700">{t('load_failed')}</p>;

  return (
    <div className="flex flex-col gap-6 py-4">
      <section aria-labelledby="payment-methods-title" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="payment-methods-title" className="text-base font-semibold text-slate-900">
            {t('title')}
          </h2>
          {abilities.canCreateMethods ? (
            <Button onClick={() => setAdding('method')}>{t('add.open')}</Button>
          ) : null}
        </div>
        {methods.data.length ? (
          <DataTable<PaymentMethod>
            caption={t('methods_label', { name })}
            rows={methods.data}
            rowKey={(m) => m.code}
            columns={[
              { id: 'method', header: t('columns.method'), rowHeader: true, cell: describe },
              {
                id: 'mandate',
                header: t('columns.mandate'),
                cell: (m) =>
                  m.sepa
                    ? t('mandate', {
                        reference: m.sepa.mandateReference,
                        date: formatDate(m.sepa.mandateSignedAt),
                      })
                    : '',
              },
              { id: 'created', header: t('columns.created'), cell: (m) => formatDate(m.createdAt) },
              { id: 'by', header: t('columns.by'), cell: (m) => m.createdByName ?? '' },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-700">{t('empty_methods')}</p>
        )}
      </section>
      {abilities.canViewBankAccounts ? (
        <section aria-labelledby="bank-accounts-title" className="flex flex-col gap-3">
          <div className="flex items-center justify-between gap-3">
            <h2 id="bank-accounts-title" className="text-base font-semibold text-slate-900">
              {t('bank_accounts_title')}
            </h2>
            {abilities.canCreateBankAccounts ? (
              <Button variant="secondary" onClick={() => setAdding('bank-account')}>
                {t('bank_add.open')}
              </Button>
            ) : null}
          </div>
          {banks.data?.length ? (
            <DataTable<BankAccount>
              caption={t('bank_accounts_label', { name })}
              rows={banks.data}
              rowKey={(b) => b.code}
              columns={[
                {
                  id: 'iban',
                  header: t('columns.iban'),
                  rowHeader: true,
                  cell: (b) => <span className="font-mono">{b.ibanMasked}</span>,
                },
                {
                  id: 'bank',
                  header: t('columns.bank'),
                  cell: (b) => [b.bankName, b.bic].filter(Boolean).join(' · '),
                },
                { id: 'holder', header: t('columns.holder'), cell: (b) => b.holderName },
              ]}
            />
          ) : banks.isPending ? null : (
            <p className="text-sm text-slate-700">{t('empty_bank_accounts')}</p>
          )}
        </section>
      ) : null}
      {adding === 'method' ? (
        <AddPaymentMethodDialog
          accountIndex={accountIndex}
          accountCode={accountCode}
          onDone={() => setAdding(null)}
        />
      ) : null}
      {adding === 'bank-account' ? (
        <AddBankAccountDialog
          accountIndex={accountIndex}
          accountCode={accountCode}
          onDone={() => setAdding(null)}
        />
      ) : null}
    </div>
  );
}
