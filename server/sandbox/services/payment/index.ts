import type { ServiceModule } from '../service.ts';
import { paymentRouter } from './payment-routes.ts';

/**
 * The payment service (issue 18): payments booked against the billing service's invoices, with
 * idempotency keys. Its tables are in the billing service's migration 034, since a booking
 * changes invoices in the same transaction.
 */
export const paymentService: ServiceModule = {
  name: 'paymentservice',
  prefix: '/paymentservice/v1',
  routers: [paymentRouter],
  migrations: [],
  dependsOn: ['tenantservice', 'insuranceservice', 'billingservice'],
};
