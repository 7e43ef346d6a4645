import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { bookingFunnelRouter } from './booking-funnel-routes.ts';
import { insurancePolicyRouter } from './insurance-policy-routes.ts';
import { insurancePolicyWriteRouter } from './insurance-policy-write-routes.ts';
import { insuranceProductRouter } from './insurance-product-routes.ts';
import { insuredObjectRouter } from './insured-object-routes.ts';
import { leadRouter } from './lead-routes.ts';
import { testCaseRouter } from './test-case-routes.ts';
import { productLookupRouter } from './product-lookup-routes.ts';
import { seedLeadsStep } from './seed-leads.ts';
import { seedPolicies } from './seed-policies.ts';
import { seedProducts } from './seed-products.ts';
import { startRenewalRuns } from './policy-renewal.ts';

/**
 * The insurance service: products and their versions, fields, formulas, factors and booking
 * funnels; policies and their lifecycle; leads. Migration 009 also creates the translation
 * service's table, and the leads step seeds lead documents into the document service's table
 * (every migration runs before any seed step, so that table is there).
 */
export const insuranceService: ServiceModule = {
  name: 'insuranceservice',
  prefix: '/insuranceservice/v1',
  routers: [
    insuranceProductRouter,
    insurancePolicyRouter,
    insurancePolicyWriteRouter,
    productLookupRouter,
    insuredObjectRouter,
    bookingFunnelRouter,
    leadRouter,
    testCaseRouter,
  ],
  migrations: sqlFiles('insurance', [
    '003-products.sql',
    '005-policies.sql',
    '006-policy-writes.sql',
    '007-leads.sql',
    '009-product-extras.sql',
    '015-policy-renewal.sql',
    '027-translated-descriptions-and-test-cases.sql',
    '030-policy-premium.sql',
    '038-role-name-labels.sql',
    '039-billing-system-fields.sql',
  ]),
  async seed({ db, logger, clock }) {
    await seedProducts(db, logger);
    // Policies are sold to the account service's customers, so after its seed; on the clock, so
    // that they come renewed or expired as of today and the renewal run at start has nothing due.
    await seedPolicies(db, logger, clock);
    await seedLeadsStep(db, logger, clock);
  },
  // Policies whose term ended renew or expire, and stored premiums in force follow the clock:
  // once at start (nothing is due right after the seed), then whenever the day changes.
  start: startRenewalRuns,
  dependsOn: ['tenantservice', 'accountservice'],
};

// For the translation service: texts belong to a product.
export { cantLoadProduct } from './insurance-product-routes.ts';

// For the claim service's cover check: whether a policy is in force on the loss day.
export { policyInForceOn } from './policy-in-force.ts';

// For the public API's product invoice: the premium of a product version for given field values.
export { loadTariffs, premiumOf, PremiumFormulaError } from './premium.ts';

// For the document service's policy schedule: what it prints of a policy's current version.
export { policyScheduleFacts, type PolicyScheduleFacts } from './policy-schedule-facts.ts';

// For the document service's product information sheet (IPID) of a product version.
export {
  activeProductVersions,
  productVersionFacts,
  type ProductVersionFacts,
} from './product-version-facts.ts';
