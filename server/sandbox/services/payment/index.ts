import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { bankAccountRouter } from './bank-account-routes.ts';
import { bankPagesRouter } from './bank-pages.ts';
import { paymentMethodRouter } from './payment-method-routes.ts';
import { paymentRouter } from './payment-routes.ts';
import { seedPaymentMethods } from './seed-payment-methods.ts';

/**
 * The payment service (issue 18): payments booked against the billing service's invoices, with
 * idempotency keys (their tables are in the billing service's migration 034, since a booking
 * changes invoices in the same transaction); customers' payment methods and bank accounts, and
 * which method each policy pays with. The tenant's payment settings (`braintree_config`,
 * `active_psp`) are tenant settings, checked by common/payment-settings.ts in the tenant service.
 */
export const paymentService: ServiceModule = {
  name: 'paymentservice',
  prefix: '/paymentservice/v1',
  routers: [paymentRouter, paymentMethodRouter, bankAccountRouter, bankPagesRouter],
  migrations: sqlFiles('payment', ['035-payment-methods.sql', '037-payment-reversal.sql']),
  async seed({ db, logger, clock }) {
    await seedPaymentMethods(db, logger, clock);
  },
  dependsOn: ['tenantservice', 'accountservice', 'insuranceservice', 'billingservice'],
};

// For the document service's invoice document: how the invoice's policy pays.
export { policyPaymentMethod } from './policy-payment-method.ts';
