import type { TFunction } from 'i18next';
import type { NotificationTemplate } from '#client/api/templates-client.ts';

/**
 * A template's name as the reader sees it: the sandbox's own e-mails, while the workspace has not
 * renamed them, in the reader's language (their stored name is the sandbox's English one); any
 * other name as the workspace gave it.
 */
export const templateName = (
  t: TFunction<'templates'>,
  template: Pick<NotificationTemplate, 'builtInName' | 'slug' | 'name'>,
): string =>
  template.builtInName
    ? t(`system_names.${keyOf(template.slug)}`, { defaultValue: template.name })
    : template.name;

/** What a kind of template is about (`leadFollowUp`: "Lead follow-up"), in the reader's language. */
export const kindLabel = (t: TFunction<'templates'>, kind: string): string =>
  t(`kinds.${keyOf(kind)}`, { defaultValue: kind });

// Locale keys are snake_case: `leadFollowUp` and `lead-follow-up` are both `lead_follow_up`.
const keyOf = (name: string) =>
  name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).replace(/-/g, '_');

/** The list of e-mail templates, or one template's editor. */
export const emailsPath = (accountIndex: number, code?: string) =>
  `/u/${accountIndex}/editor/emails${code ? `/${encodeURIComponent(code)}` : ''}`;
