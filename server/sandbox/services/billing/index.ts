import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { startDayRun } from '#server/sandbox/platform/day-run.ts';
import { runBilling } from './billing-run.ts';
import { invoiceRouter } from './invoice-routes.ts';
import { reportRouter } from './report-routes.ts';
import { seedBilling } from './seed-billing.ts';
import { taxRateRouter } from './tax-rate-routes.ts';

/**
 * The billing service (issue 18): invoices computed from the policies' premiums by the billing
 * run, manual invoices, the finance report. Migration 034 also holds the payment service's
 * tables (payments, their allocations to invoices, idempotency keys): a payment books against
 * invoices in one transaction. The insurance tax of each product (`product_tax_rates`) is read
 * and set here too (tax-rate-routes.ts).
 */
export const billingService: ServiceModule = {
  name: 'billingservice',
  prefix: '/billingservice/v1',
  routers: [invoiceRouter, reportRouter, taxRateRouter],
  migrations: sqlFiles('billing', ['034-billing.sql']),
  async seed({ db, logger, clock }) {
    await seedBilling(db, logger, clock);
  },
  // What fell due since the last run: at start (nothing right after the seed), then every day.
  start: (ctx) =>
    startDayRun(ctx, 'billing', async (nowMs) => {
      const started = Date.now();
      const { invoices } = await runBilling(ctx.db, nowMs);
      if (invoices) ctx.logger.info({ invoices, ms: Date.now() - started }, 'billing run');
    }),
  dependsOn: ['tenantservice', 'accountservice', 'insuranceservice'],
};

// For the payment service: booking against invoices, the keys of its writes, the currencies.
export { allocatePayment, paidStatusOf, type DueInvoice } from './invoice-engine.ts';
export { idempotencyKeyOf, idempotentWrite } from './idempotency.ts';
export { assertCurrency } from './invoice-routes.ts';
export { invoiceNotFound, type PayableInvoiceRow } from './invoice-store.ts';

// For the public API's product invoice: a quote's lines as an invoice's, at the product's tax.
export {
  DEFAULT_TAX_RATE_BP,
  centsOf,
  lineOf,
  totalsOf,
  type InvoiceLine,
} from './invoice-engine.ts';
export { productTaxRateBp } from './tax-rate-routes.ts';

// For the document service's invoice document: what it prints of an invoice.
export { invoiceDocumentFacts, type InvoiceDocumentFacts } from './invoice-document-facts.ts';
