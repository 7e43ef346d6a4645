import type { ServiceModule } from '../service.ts';
import { productInvoiceRouter } from './product-invoice-routes.ts';

/**
 * The public API (spec section 6: `/publicapi/...` takes the tenant slug as bearer): what a
 * booking funnel outside the back office calls without a signed-in user. Today only the product
 * invoice, a quote of a product's premium with its tax; it stores nothing, so it has no tables.
 */
export const publicApiService: ServiceModule = {
  name: 'publicapi',
  prefix: '/publicapi/v1',
  routers: [productInvoiceRouter],
  migrations: [],
  dependsOn: ['tenantservice', 'insuranceservice', 'billingservice'],
};
