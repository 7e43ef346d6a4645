import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { claimRouter } from './claim-routes.ts';
import { seedClaimsStep } from './seed-claims.ts';
import { seedPaymentLimits } from './payment-limits.ts';
import { settlementRouter } from './settlement-routes.ts';

/** The demo claim custom fields, for the tenant service's migration that labels them. */
export { DEMO_CLAIM_FIELDS } from './seed-claims.ts';

/** The claim service: claim statuses and partner roles, claims on policies, settlements. */
export const claimService: ServiceModule = {
  name: 'claimservice',
  prefix: '/claimservice/v1',
  routers: [claimRouter, settlementRouter],
  migrations: sqlFiles('claim', [
    '011-claims.sql',
    '016-claim-controls.sql',
    '021-name-labels.sql',
    '026-default-name-labels.sql',
    '033-payment-reversals.sql',
  ]),
  async seed({ db, logger, clock }) {
    await seedClaimsStep(db, logger, clock);
    // The demo roles' payment authority: the tenant service seeded the roles before.
    await seedPaymentLimits(db, logger);
  },
  dependsOn: ['tenantservice', 'insuranceservice', 'partnerservice'],
};

// For the process manager's claim.setStatus task.
export { setClaimStatusByWorkflow } from './workflow-status.ts';

// For the document service's claim acknowledgement: what it prints of a claim.
export {
  claimAcknowledgementFacts,
  type ClaimAcknowledgementFacts,
} from './claim-acknowledgement-facts.ts';
