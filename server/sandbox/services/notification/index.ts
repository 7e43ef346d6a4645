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
// The template engine and the document kinds' catalogue, for the document service's layouts and
// doc-templates (checked at save and rendered as the e-mails are).
export {
  checkTemplate,
  formatMoney,
  formatDay,
  refuseProblems,
  renderPart,
  type TemplateProblem,
} from './template-engine.ts';
export { variablePaths, type VariableRecord } from './template-variables.ts';
export { TEMPLATE_ACCESS, templateName, templateSource } from './template-access.ts';
// The layouts' and templates' routes both services keep alike: list, read, write, versions.
export {
  mountTemplateCrud,
  type LayoutTable,
  type TemplateChange,
  type TemplateCrud,
  type TemplateDraft,
  type TemplateTable,
} from './template-crud.ts';
export {
  DOCUMENT_KINDS,
  DOCUMENT_LAYOUT_VARIABLES,
  documentSampleOf,
  documentVariablesOf,
  isDocumentKind,
  type DocumentKind,
} from './document-variables.ts';
