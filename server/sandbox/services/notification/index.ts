import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { notificationRouter } from './notifications.ts';
import { templateRouter } from './template-routes.ts';
import { ensureSystemTemplates } from './template-store.ts';

/**
 * The notification service: the live channel (WebSocket at WS_PATH) and its HTTP endpoints. Other
 * services push through the hub in the sandbox context; sandbox.ts attaches the socket. E-mail
 * layouts and templates (issue 19) are its too: every e-mail the sandbox sends is rendered from
 * the workspace's template (mail.ts, which the tenant, auth and process services send through).
 */
export const notificationService: ServiceModule = {
  name: 'notificationservice',
  prefix: '/notificationservice/v1',
  routers: [notificationRouter, templateRouter],
  migrations: sqlFiles('notification', ['040-notification-templates.sql']),
  // The demo workspaces start with their system layout and templates (later ones on first use).
  async seed({ db, clock }) {
    const tenants = await db.query<{ id: number }>('SELECT id FROM tenants ORDER BY id');
    for (const { id } of tenants) await ensureSystemTemplates(db, id, new Date(clock.now()));
  },
  dependsOn: [],
};

export { ACCESS_CHANGED, NotificationHub, attachNotificationSocket } from './notifications.ts';
// The e-mails the other services send: invitations, resets, a workflow's notices.
export {
  MAIL_LANGUAGES,
  absoluteLink,
  isNoticeKind,
  recipientLanguage,
  sendNotice,
  sendTenantMail,
  tenantLanguage,
  type MailKind,
  type MailLanguage,
  type NoticeKind,
} from './mail.ts';
