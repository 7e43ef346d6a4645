import { fetchJson } from './fetch-json.ts';

/**
 * E-mail layouts and notification templates of the notification service through the BFF proxy
 * (docs/contracts.md, "Notification templates (issue 19)"). Sources are Liquid; a refused source
 * is a 400 `validation_error` whose issues name the part (`bodies.de.html`), line and column.
 */

export const TEMPLATE_LANGUAGES = ['de', 'en', 'pl'] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];
export const TEMPLATE_PARTS = ['subject', 'html', 'text'] as const;
export type TemplatePart = (typeof TEMPLATE_PARTS)[number];

export type TemplateBody = Record<TemplatePart, string>;
export type TemplateBodies = Record<TemplateLanguage, TemplateBody>;

export interface NotificationTemplate {
  id: number;
  code: string;
  slug: string;
  name: string;
  kind: string;
  layoutCode: string | null;
  bodies: TemplateBodies;
  isSystem: boolean;
  /** A system template still named as the sandbox named it: shown in the reader's language. */
  builtInName: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedByName: string | null;
}

export interface TemplateVariable {
  path: string;
  type: string;
}

export interface MailLayout {
  code: string;
  name: string;
  isSystem: boolean;
}

export interface TemplateVersion {
  version: number;
  name: string;
  savedAt: string;
  savedByName: string | null;
}

export interface TemplatePreview {
  subject: string;
  html: string;
  text: string;
}

const base = (accountIndex: number) => `/api/${accountIndex}/notificationservice/v1`;
const templatePath = (accountIndex: number, code: string) =>
  `${base(accountIndex)}/notification-templates/${encodeURIComponent(code)}`;

/** The workspace's templates: a workspace has a handful (one per e-mail it sends), one page. */
export async function listTemplates(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<NotificationTemplate[]> {
  const page = await fetchJson<{ items: NotificationTemplate[] }>(
    `${base(accountIndex)}/notification-templates?pageSize=100`,
    { signal },
  );
  return page.items;
}

export async function listLayouts(accountIndex: number, signal?: AbortSignal) {
  const page = await fetchJson<{ items: MailLayout[] }>(
    `${base(accountIndex)}/layouts?pageSize=60`,
    { signal },
  );
  return page.items;
}

/** A template of the workspace by its code (`ntt_…`), with the variables its kind may use. */
export async function getTemplate(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<{ template: NotificationTemplate; variables: TemplateVariable[] }> {
  return fetchJson(templatePath(accountIndex, code), { signal });
}

export async function listTemplateVersions(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<TemplateVersion[]> {
  const page = await fetchJson<{ items: TemplateVersion[] }>(
    `${templatePath(accountIndex, code)}/versions`,
    { signal },
  );
  return page.items;
}

export interface TemplateChanges {
  name: string;
  layoutCode: string | null;
  bodies: TemplateBodies;
}

export async function saveTemplate(
  accountIndex: number,
  code: string,
  data: TemplateChanges,
  signal?: AbortSignal,
): Promise<NotificationTemplate> {
  const answer = await fetchJson<{ template: NotificationTemplate }>(
    templatePath(accountIndex, code),
    { method: 'PUT', body: { data }, signal },
  );
  return answer.template;
}

export interface PreviewRequest {
  kind: string;
  layoutCode: string | null;
  language: TemplateLanguage;
  body: TemplateBody;
}

export async function previewTemplate(
  accountIndex: number,
  request: PreviewRequest,
  signal?: AbortSignal,
): Promise<TemplatePreview> {
  const answer = await fetchJson<{ preview: TemplatePreview }>(
    `${base(accountIndex)}/notification-templates/preview`,
    { method: 'POST', body: request, signal },
  );
  return answer.preview;
}

/** The saved template rendered with the sample record, sent to the caller's own address. */
export async function sendTestMail(
  accountIndex: number,
  code: string,
  language: TemplateLanguage,
): Promise<{ sentTo: string; subject: string }> {
  return fetchJson(`${templatePath(accountIndex, code)}/test-mail`, {
    method: 'POST',
    body: { language },
  });
}

/** The kinds a template can be of (what its e-mail is about), with the variables each may use. */
export async function listTemplateKinds(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<{ kind: string; variables: TemplateVariable[] }[]> {
  const answer = await fetchJson<{ items: { kind: string; variables: TemplateVariable[] }[] }>(
    `${base(accountIndex)}/template-kinds`,
    { signal },
  );
  return answer.items;
}

export interface NewTemplate {
  slug: string;
  name: string;
  kind: string;
  layoutCode: string | null;
  bodies: TemplateBodies;
}

export async function createTemplate(
  accountIndex: number,
  template: NewTemplate,
): Promise<NotificationTemplate> {
  const answer = await fetchJson<{ template: NotificationTemplate }>(
    `${base(accountIndex)}/notification-templates`,
    { method: 'POST', body: template },
  );
  return answer.template;
}

/** Deletes one of the workspace's own templates; a system template is refused (409). */
export async function deleteTemplate(accountIndex: number, code: string): Promise<void> {
  await fetchJson(templatePath(accountIndex, code), { method: 'DELETE' });
}
