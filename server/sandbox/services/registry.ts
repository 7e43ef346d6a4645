import { accountService } from './account/index.ts';
import { authService } from './auth/index.ts';
import { billingService } from './billing/index.ts';
import { claimService } from './claim/index.ts';
import { documentService } from './document/index.ts';
import { insuranceService } from './insurance/index.ts';
import { notificationService } from './notification/index.ts';
import { partnerService } from './partner/index.ts';
import { paymentService } from './payment/index.ts';
import { processManagerService } from './processmanager/index.ts';
import { publicApiService } from './publicapi/index.ts';
import { inDependencyOrder, type ServiceModule } from './service.ts';
import { tenantService } from './tenant/index.ts';
import { translationService } from './translation/index.ts';

/**
 * Every service the sandbox serves, one line each (server/sandbox/README.md). sandbox.ts mounts,
 * migrates and seeds them in dependency order; between services free to go, in this order.
 */
export const SERVICE_MODULES: readonly ServiceModule[] = [
  notificationService,
  tenantService,
  authService,
  accountService,
  partnerService,
  insuranceService,
  translationService,
  claimService,
  documentService,
  processManagerService,
  billingService,
  paymentService,
  publicApiService,
];

/** The registry in the order sandbox.ts uses; throws at start-up on a cycle or a missing service. */
export const orderedServices = (): ServiceModule[] => inDependencyOrder(SERVICE_MODULES);

/** Every service's migration files, each service's after those of the services it depends on. */
export const migrationFiles = (): string[] => orderedServices().flatMap((s) => s.migrations);
