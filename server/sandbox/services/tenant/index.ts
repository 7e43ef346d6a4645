import type { ServiceModule } from '../service.ts';
import { ensureSystemTemplates } from '#server/sandbox/services/notification/index.ts';
import { sqlFiles } from '../service.ts';
import { activityLogRouter } from './activity-log-routes.ts';
import { listViewRouter } from './list-view-routes.ts';
import { organizationRouter } from './organization-routes.ts';
import { seedAdministration } from './seed-administration.ts';
import { seedDemoWorld } from './seed.ts';
import { seedFinanceRole } from './seed-finance.ts';
import { settingsRouter } from './settings-routes.ts';
import { tenantRouter } from './tenant-routes.ts';
import { userAdminRouter } from './user-admin-routes.ts';
import { userPageRouter } from './user-page-routes.ts';

/**
 * The tenant service: workspaces, users, roles, organizations and their invitations, settings and
 * saved list views. Its first migration also holds the tables every service signs in against
 * (users, roles, refresh tokens, signing keys).
 */
export const tenantService: ServiceModule = {
  name: 'tenantservice',
  prefix: '/tenantservice/v1',
  routers: [
    // Before the base router: its `/users/:id` would otherwise take `/users/invites` for an id.
    userAdminRouter,
    userPageRouter,
    tenantRouter,
    organizationRouter,
    settingsRouter,
    listViewRouter,
    activityLogRouter,
  ],
  migrations: sqlFiles('tenant', [
    '001-init.sql',
    '002-administration.sql',
    '010-list-views.sql',
    '013-settings-versions.sql',
    '014-settings-record-versions.sql',
    '018-audit-events.sql',
    '023-organization-versions.sql',
    '024-user-page.sql',
    '025-audit-admin-log.sql',
    '028-custom-field-labels.sql',
    '041-outbox-html.sql',
  ]),
  async seed({ db, logger, publicBaseUrl, clock }) {
    await seedDemoWorld(db, logger);
    // Every workspace's e-mail layout and templates (issue 19), before the seed's invitations.
    const tenants = await db.query<{ id: number }>('SELECT id FROM tenants ORDER BY id');
    for (const { id } of tenants) await ensureSystemTemplates(db, id, new Date(clock.now()));
    // A second step, so that data directories seeded before these tables existed get it too.
    await seedAdministration(db, logger, publicBaseUrl);
    // Issue 18's finance role and customer care's payment rights, for older data directories.
    await seedFinanceRole(db, logger);
  },
  dependsOn: ['notificationservice'],
};

// For the auth service's guest calls: accepting an invitation creates a user, an organization.
export { newUserCode } from './seed.ts';
export {
  INVITATION_COLUMNS,
  insertOrganization,
  presentInvitations,
  presentOrganization,
  type InvitationRow,
} from './organization-routes.ts';
// For the process manager's http.call tasks: the workspace's system user and its tokens.
export { systemUserToken } from './system-user.ts';
