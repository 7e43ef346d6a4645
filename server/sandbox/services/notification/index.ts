import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { notificationRouter } from './notifications.ts';
import { templateRouter } from './template-routes.ts';

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
  // No seed of its own: its seed would run before the tenant service's makes the workspaces
  // (tenantservice depends on this one); that one gives them their templates.
  dependsOn: [],
};

export { ACCESS_CHANGED, NotificationHub, attachNotificationSocket } from './notifications.ts';
// The system layout and templates of a workspace, which the tenant service's seed gives.
export { ensureSystemTemplates } from './template-store.ts';
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
