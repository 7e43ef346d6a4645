import type { ServiceModule } from '../service.ts';
import { partnerRouter } from './partner-routes.ts';

/** The partner service: partners, their types and tags (tables and demo data: see account). */
export const partnerService: ServiceModule = {
  name: 'partnerservice',
  prefix: '/partnerservice/v1',
  routers: [partnerRouter],
  migrations: [],
  dependsOn: ['tenantservice', 'accountservice'],
};

// For the claim service: a claim's partners are shown as the partner service shows them.
export { PARTNER_COLUMNS, presentPartners, type PartnerRow } from './partner-routes.ts';
