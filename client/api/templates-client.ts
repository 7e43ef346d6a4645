import { fetchJson } from './fetch-json.ts';
import { templateCalls } from './template-calls.ts';

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

export interface MailLayout {
  code: string;
  name: string;
  isSystem: boolean;
  /** The e-mail around a template's part: `{{ content }}` once in each. */
  html?: string;
  text?: string;
  updatedAt: string;
  updatedByName: string | null;
}

export interface TemplatePreview {
  subject: string;
  html: string;
  text: string;
}

export interface TemplateChanges {
  name: string;
  layoutCode: string | null;
  bodies: TemplateBodies;
}

export interface NewTemplate {
  slug: string;
  name: string;
  kind: string;
  layoutCode: string | null;
  bodies: TemplateBodies;
}

/** The workspace's e-mail templates (`ntt_…` codes): a handful, one per e-mail it sends. */
export const mailTemplates = templateCalls<
  NotificationTemplate,
  MailLayout,
  TemplateChanges,
  NewTemplate
>({
  service: 'notificationservice',
  collection: 'notification-templates',
  kinds: 'template-kinds',
});

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
    `${mailTemplates.base(accountIndex)}/notification-templates/preview`,
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
  return fetchJson(`${mailTemplates.pathOf(accountIndex, code)}/test-mail`, {
    method: 'POST',
    body: { language },
  });
}
