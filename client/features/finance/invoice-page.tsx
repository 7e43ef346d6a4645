import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { textKey, type Invoice } from '#client/api/billing-client.ts';
import { billingQueries } from '#client/api/billing-queries.ts';
import { documentQueries } from '#client/api/documents-queries.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { RangedDocuments } from '#client/entities/document/ranged-documents.tsx';
import { BookPaymentAction } from '#client/entities/invoice/book-payment.tsx';
import { ReversePaymentAction } from '#client/entities/invoice/reverse-payment.tsx';
import {
  InvoicePolicy,
  InvoiceStatusBadge,
  periodOf,
  useInvoiceMoney,
} from '#client/entities/invoice/invoice-parts.tsx';
import { useBillingAbilities } from '#client/entities/invoice/use-billing-abilities.ts';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const td = 'px-3 py-2 text-sm text-slate-800';
const num = `${td} text-right tabular-nums`;
/**
 * A table's frame that scrolls sideways on a narrow screen. Relative, so that what the table
 * positions absolutely (the actions column's screen-reader name) is placed in the frame: else it
 * is placed against the page and widens the whole page at 400 px.
 */
const tableFrame = 'relative overflow-x-auto rounded-md border border-slate-200';

/**
 * One invoice (opened from the invoice list, a customer or a policy): its facts and amounts, its
 * lines, its status history with who, and the payments booked on it; "Book payment" for a user
 * who may, while something is open. Prints cleanly (the shell's chrome is left out of print)
 * until invoices are rendered as PDF documents with the templates.
 */
export default function InvoicePage() {
  const { t } = useTranslation(['finance', 'common']);
  const { invoiceCode = '' } = useParams();
  const abilities = useBillingAbilities();
  const { accountIndex } = abilities;
  const queryClient = useQueryClient();
  const invoice = billingQueries.invoice(accountIndex, invoiceCode);
  const query = useQuery(invoice);
  const reload = () =>
    void queryClient.invalidateQueries({ queryKey: billingQueries.all(accountIndex) });

  return (
    <DetailPage
      query={query}
      back={{
        to: `/u/${accountIndex}/finance-management/finance-invoices`,
        label: t('detail.back'),
      }}
      texts={{
        loading: t('common:status.loading'),
        title: t('detail.title'),
        notFound: t('detail.not_found'),
        failed: t('detail.failed'),
      }}
      pageTitle={(i) => `${t('detail.title')} ${i.invoiceNumber}`}
    >
      {(record) => ({
        title: `${t('detail.title')} ${record.invoiceNumber}`,
        badge: (
          <span data-testid="invoice-status">
            <InvoiceStatusBadge invoice={record} />
          </span>
        ),
        subtitle: t('detail.subtitle', {
          type: t(`types.${record.type}`),
          due: formatDate(record.dueDate),
        }),
        summary: <InvoiceFacts invoice={record} />,
        actions: (
          <div className="flex flex-wrap gap-2 print:hidden">
            {abilities.canBookPayments && record.openAmount > 0 ? (
              <BookPaymentAction accountIndex={accountIndex} invoice={record} onChanged={reload} />
            ) : null}
            <Button variant="secondary" onClick={() => window.print()}>
              {t('detail.print')}
            </Button>
          </div>
        ),
        sections: (
          <>
            <InvoiceLines invoice={record} />
            <InvoiceStatuses invoice={record} />
            {abilities.canViewPayments ? (
              <InvoicePayments invoice={record} onChanged={reload} />
            ) : null}
            <InvoiceDocuments invoice={record} />
          </>
        ),
      })}
    </DetailPage>
  );
}

/**
 * The invoice's documents (issue 19): the invoice as a PDF, which the document service issues
 * for an invoice made through the billing service's API (the billing run's and the demo world's
 * invoices are made by the thousand and get none: docs/contracts.md), printed on its first
 * download; 100 at a time (spec), newest first.
 */
function InvoiceDocuments({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('documents');
  const { accountIndex, may } = useAccountAccess();
  return (
    <Section id="invoice-documents" title={t('title')}>
      {may('document-management', 'documents', 'view') ? (
        <RangedDocuments
          accountIndex={accountIndex}
          queryOf={(range) => documentQueries.ofInvoice(accountIndex, invoice.code, range)}
          caption={t('invoice.caption', { number: invoice.invoiceNumber })}
          empty={t('empty')}
          withSource
          issue={{ kind: 'invoice', entityCode: invoice.code }}
        />
      ) : (
        <p className="py-6 text-sm text-slate-700">{t('policy.not_allowed')}</p>
      )}
    </Section>
  );
}

/** A part of the page under its own heading (lines, statuses, payments, documents). */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt>{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function InvoiceFacts({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('finance');
  const { accountIndex, canViewPolicies } = useBillingAbilities();
  const amount = useInvoiceMoney();
  return (
    <div className="flex flex-col gap-3">
      <dl className="flex flex-wrap gap-x-8 gap-y-1 text-sm text-slate-700">
        {invoice.policyCode ? (
          <Fact label={t('detail.policy')}>
            <InvoicePolicy
              invoice={invoice}
              accountIndex={accountIndex}
              canViewPolicies={canViewPolicies}
            />
          </Fact>
        ) : null}
        {invoice.accountNumber ? (
          <Fact label={t('detail.customer')}>{invoice.accountNumber}</Fact>
        ) : null}
        {invoice.billingIntervalFrom ? (
          <Fact label={t('detail.period')}>{periodOf(invoice)}</Fact>
        ) : null}
        <Fact label={t('detail.due')}>{formatDate(invoice.dueDate)}</Fact>
        <Fact label={t('detail.created')}>{formatDateTime(invoice.createdAt)}</Fact>
      </dl>
      <dl
        className="grid max-w-xl grid-cols-3 gap-x-6 gap-y-2 text-sm sm:grid-cols-6"
        data-testid="invoice-amounts"
      >
        {(
          [
            ['net', invoice.netAmount],
            ['tax', invoice.taxAmount],
            ['gross', invoice.grossAmount],
            ['credit', invoice.creditAmount],
            ['paid', invoice.paidAmount],
            ['open', invoice.openAmount],
          ] as const
        ).map(([key, cents]) => (
          <div key={key} className="flex flex-col">
            <dt className="text-slate-600">{t(`detail.${key}`)}</dt>
            <dd
              className="font-semibold tabular-nums text-slate-900"
              data-testid={`invoice-${key}`}
            >
              {amount(cents, invoice)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function InvoiceLines({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation('finance');
  const amount = useInvoiceMoney();
  const percent = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (
    <Section id="invoice-lines" title={t('detail.lines')}>
      <div className={tableFrame}>
        <table className="w-full min-w-[40rem]">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('detail.line_name')}</th>
              <th className={`${th} text-right`}>{t('detail.quantity')}</th>
              <th className={`${th} text-right`}>{t('detail.price')}</th>
              <th className={`${th} text-right`}>{t('detail.tax_rate')}</th>
              <th className={`${th} text-right`}>{t('detail.net')}</th>
              <th className={`${th} text-right`}>{t('detail.tax')}</th>
              <th className={`${th} text-right`}>{t('detail.gross')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {invoice.invoiceItems.map((item, index) => (
              <tr key={`${item.name}-${index}`}>
                <td className={td}>{item.name}</td>
                <td className={num}>{item.quantity}</td>
                <td className={num}>{amount(item.pricePerUnit, invoice)}</td>
                <td className={num}>{`${percent.format(item.taxRate)} %`}</td>
                <td className={num}>{amount(item.netAmount, invoice)}</td>
                <td className={num}>{amount(item.taxAmount, invoice)}</td>
                <td className={num}>{amount(item.grossAmount, invoice)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function InvoiceStatuses({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('finance');
  if (!invoice.statuses?.length) return null;
  return (
    <Section id="invoice-statuses" title={t('detail.statuses')}>
      <ol className="flex flex-col gap-1 text-sm text-slate-800">
        {invoice.statuses.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className="flex flex-wrap gap-x-3">
            <span className="tabular-nums">{formatDateTime(entry.at)}</span>
            <span className="font-medium">{t(`statuses.${textKey(entry.status)}`)}</span>
            <span className="text-slate-600">{entry.byName ?? t('detail.system')}</span>
            {entry.reason ? (
              <span className="text-slate-700">
                {t('detail.status_reason', { reason: entry.reason })}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}

function InvoicePayments({ invoice, onChanged }: { invoice: Invoice; onChanged: () => void }) {
  const { t } = useTranslation('finance');
  const { accountIndex, canBookPayments } = useBillingAbilities();
  const amount = useInvoiceMoney();
  const query = useQuery(billingQueries.invoicePayments(accountIndex, invoice.code));
  const state = loadStateOf(query);
  return (
    <Section id="invoice-payments" title={t('detail.payments')}>
      {state.kind === 'failed' ? (
        <RetryAlert message={t('detail.payments_failed')} onRetry={() => void query.refetch()} />
      ) : state.kind !== 'ready' ? null : state.value.length === 0 ? (
        <p className="text-sm text-slate-700">{t('detail.no_payments')}</p>
      ) : (
        <div className={tableFrame}>
          <table className="w-full min-w-[36rem]" data-testid="invoice-payments">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('detail.payment_booked_at')}</th>
                <th className={`${th} text-right`}>{t('detail.payment_amount')}</th>
                <th className={th}>{t('detail.payment_method')}</th>
                <th className={th}>{t('detail.payment_reference')}</th>
                <th className={th}>{t('detail.payment_by')}</th>
                <th className={th}>{t('detail.payment_status')}</th>
                {canBookPayments ? (
                  <th className={th}>
                    <span className="sr-only">{t('detail.payment_actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {state.value.map((payment) => {
                const onThis = payment.allocations.find((a) => a.invoiceCode === invoice.code);
                const paid = amount(onThis?.amount ?? payment.amount, invoice);
                const reversed = payment.status === 'reversed';
                return (
                  <tr key={payment.code} data-testid={`payment-${payment.code}`}>
                    <td className={td}>{formatDateTime(payment.bookedAt)}</td>
                    <td className={`${num} ${reversed ? 'line-through' : ''}`}>{paid}</td>
                    <td className={td}>
                      {t(`methods.${textKey(payment.method)}` as 'methods.sepa', {
                        defaultValue: payment.method,
                      })}
                    </td>
                    <td className={td}>{payment.reference ?? ''}</td>
                    <td className={td}>{payment.createdByName ?? t('detail.system')}</td>
                    <td className={td}>
                      {reversed && payment.reversal ? (
                        <span>
                          {t('detail.payment_reversed', {
                            at: formatDateTime(payment.reversal.at),
                            by: payment.reversal.byName ?? t('detail.system'),
                          })}
                          <span className="block text-slate-600">{payment.reversal.reason}</span>
                        </span>
                      ) : (
                        t(`detail.payment_statuses.${payment.status}`)
                      )}
                    </td>
                    {canBookPayments ? (
                      <td className={td}>
                        {reversed ? null : (
                          <ReversePaymentAction
                            accountIndex={accountIndex}
                            payment={payment}
                            invoiceNumber={invoice.invoiceNumber}
                            amountText={paid}
                            onChanged={onChanged}
                          />
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
