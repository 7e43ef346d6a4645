import type { Queryable } from '#server/sandbox/platform/db.ts';
import { sendMail } from '#server/sandbox/platform/admin-shared.ts';
import { TEMPLATE_LANGUAGES, type TemplateLanguage } from './default-templates.ts';
import { renderSystemMail } from './template-store.ts';

/*
 * The e-mails the sandbox sends (invitations, password resets), with links a mail client can
 * open: absolute, built from the public address of the back office (PUBLIC_BASE_URL). A relative
 * link in an e-mail leads nowhere. An e-mail to somebody who has an account is in the language
 * they chose for themselves (their profile); an invitation, whose recipient has no account yet,
 * and a user who chose none get the language of the tenant it comes from.
 */

// An e-mail is written in a language its template has.
export const MAIL_LANGUAGES = TEMPLATE_LANGUAGES;
export type MailLanguage = TemplateLanguage;
/** Spec: English is the default language. */
const DEFAULT_LANGUAGE: MailLanguage = 'en';

/** The sandbox's own e-mails; their texts are the workspace's templates (issue 19). */
export type MailKind =
  'userInvitation' | 'organizationInvitation' | 'passwordReset' | 'adminPasswordReset' | 'welcome';

/** The tenant's language (general settings); an unknown one reads as the default. */
export async function tenantLanguage(db: Queryable, tenantId: number): Promise<MailLanguage> {
  const [row] = await db.query<{ language: string }>(
    'SELECT language FROM general_settings WHERE tenant_id = $1',
    [tenantId],
  );
  const language = row?.language.slice(0, 2).toLowerCase();
  return MAIL_LANGUAGES.find((known) => known === language) ?? DEFAULT_LANGUAGE;
}

/** The user's own setting that holds their language (client/i18n/language.ts). */
const USER_LANGUAGE_SETTING = 'language';

/**
 * The language of a user with an account: the one they chose in their profile, else the tenant's.
 * The setting is kept per workspace; the one of the mail's workspace wins, else the one they set
 * last in another workspace of theirs (it is still their language).
 */
export async function recipientLanguage(
  db: Queryable,
  recipient: { userId: number; tenantId: number },
): Promise<MailLanguage> {
  const [row] = await db.query<{ language: string | null }>(
    `SELECT value #>> '{}' AS language FROM user_settings
      WHERE user_id = $1 AND key = $3 AND jsonb_typeof(value) = 'string'
      ORDER BY (tenant_id = $2) DESC, updated_at DESC
      LIMIT 1`,
    [recipient.userId, recipient.tenantId, USER_LANGUAGE_SETTING],
  );
  const chosen = row?.language?.slice(0, 2).toLowerCase();
  return (
    MAIL_LANGUAGES.find((known) => known === chosen) ??
    (await tenantLanguage(db, recipient.tenantId))
  );
}

/** `path` (with its query) under the public base address: `https://bo.example/registration?…`. */
export function absoluteLink(publicBaseUrl: string, path: string): string {
  // Relative to the base's path, so that a back office under /app keeps it.
  const base = publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`;
  return new URL(path.replace(/^\/+/, ''), base).href;
}

/**
 * Writes the e-mail of `kind`, its link absolute: in the recipient's language when they have an
 * account (`userId`), else in the tenant's.
 */
export async function sendTenantMail(
  db: Queryable,
  mail: {
    tenantId: number;
    to: string;
    kind: MailKind;
    /** The link's path and query, relative to the back office's public address. */
    path: string;
    publicBaseUrl: string;
    /** The organisation to register (`organizationInvitation`) or to join (`userInvitation`). */
    name?: string;
    /** The recipient's account, when they have one: the e-mail is in their own language. */
    userId?: number;
  },
): Promise<void> {
  const language =
    mail.userId === undefined
      ? await tenantLanguage(db, mail.tenantId)
      : await recipientLanguage(db, { userId: mail.userId, tenantId: mail.tenantId });
  const link = absoluteLink(mail.publicBaseUrl, mail.path);
  const { subject, html, text } = await renderSystemMail(db, {
    tenantId: mail.tenantId,
    kind: mail.kind,
    language,
    values: {
      link,
      recipient: { email: mail.to },
      workspace: { name: mail.name ?? null },
      organization: { name: mail.name ?? null },
    },
  });
  await sendMail(db, { tenantId: mail.tenantId, to: mail.to, subject, text, html, link });
}

/**
 * The notices a workflow sends (`notification.sendEmail?template=…`): a letter names the record
 * by the number its reader knows (POL-…, the lead's number), never the internal code. Values
 * come from the workflow's variables, filled by the event that started it.
 */
const NOTICES = {
  policyTerminated: (values: Record<string, string>) => ({
    policy: { number: values.policyNumber, terminationDate: values.terminationDate || null },
  }),
  leadFollowUp: (values: Record<string, string>) => ({ lead: { number: values.leadNumber } }),
};

export type NoticeKind = keyof typeof NOTICES;

/** What each notice cannot do without: a letter with no number would name nothing. */
const NOTICE_NEEDS: Record<NoticeKind, readonly string[]> = {
  policyTerminated: ['policyNumber'],
  leadFollowUp: ['leadNumber'],
};
export const isNoticeKind = (kind: string): kind is NoticeKind => Object.hasOwn(NOTICES, kind);

/**
 * Writes a workflow's notice of `kind` to `to`: in their own language when they have an account
 * in the tenant, else in the tenant's (the letter to a customer, post@…).
 */
export async function sendNotice(
  db: Queryable,
  mail: { tenantId: number; to: string; kind: NoticeKind; values: Record<string, string> },
): Promise<void> {
  const missing = NOTICE_NEEDS[mail.kind].find((name) => !mail.values[name]);
  if (missing) throw new Error(`the e-mail ${mail.kind} needs the variable ${missing}`);
  const [user] = await db.query<{ id: number }>(
    `SELECT u.id FROM users u JOIN tenant_users m ON m.user_id = u.id AND m.tenant_id = $1
      WHERE lower(u.email) = lower($2) LIMIT 1`,
    [mail.tenantId, mail.to],
  );
  const language = user
    ? await recipientLanguage(db, { userId: user.id, tenantId: mail.tenantId })
    : await tenantLanguage(db, mail.tenantId);
  const { subject, html, text } = await renderSystemMail(db, {
    tenantId: mail.tenantId,
    kind: mail.kind,
    language,
    values: { recipient: { email: mail.to }, ...NOTICES[mail.kind](mail.values) },
  });
  await sendMail(db, { tenantId: mail.tenantId, to: mail.to, subject, text, html, link: null });
}
