import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { accountRouter } from './account-routes.ts';
import { seedAccounts } from './seed-accounts.ts';

/**
 * The account service: the tenant's customers. Its migration and seed step also create the
 * partner service's tables and demo partners (written before the two were folders of their own;
 * the recorded migration version keeps the file whole), so the partner service depends on it.
 */
export const accountService: ServiceModule = {
  name: 'accountservice',
  prefix: '/accountservice/v1',
  routers: [accountRouter],
  migrations: sqlFiles('account', ['004-accounts-partners.sql']),
  async seed({ db, logger, clock }) {
    await seedAccounts(db, logger, clock);
  },
  dependsOn: ['tenantservice'],
};
