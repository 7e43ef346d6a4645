import type { Queryable } from './db.ts';
import { sendMail } from './admin-shared.ts';

/*
 * The e-mails the sandbox sends (invitations, password resets), with links a mail client can
 * open: absolute, built from the public address of the back office (PUBLIC_BASE_URL). A relative
 * link in an e-mail leads nowhere. An e-mail to somebody who has an account is in the language
 * they chose for themselves (their profile); an invitation, whose recipient has no account yet,
 * and a user who chose none get the language of the tenant it comes from.
 */

export const MAIL_LANGUAGES = ['de', 'en', 'pl'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
/** Spec: English is the default language. */
const DEFAULT_LANGUAGE: MailLanguage = 'en';

interface MailText {
  subject: string;
  text: string;
}

const TEMPLATES = {
  userInvitation: {
    de: ({ to, link }) => ({
      subject: 'Sie wurden eingeladen',
      text:
        `Sie wurden eingeladen, ${to ?? 'dem Arbeitsbereich'} beizutreten. ` +
        `Schließen Sie Ihre Registrierung innerhalb von 7 Tagen ab: ${link}`,
    }),
    en: ({ to, link }) => ({
      subject: 'You have been invited',
      text:
        `You have been invited to join ${to ?? 'the workspace'}. ` +
        `Complete your registration within 7 days: ${link}`,
    }),
    pl: ({ to, link }) => ({
      subject: 'Otrzymano zaproszenie',
      text:
        `Zaproszono Cię do ${to ?? 'obszaru roboczego'}. ` +
        `Dokończ rejestrację w ciągu 7 dni: ${link}`,
    }),
  },
  organizationInvitation: {
    de: ({ name, link }) => ({
      subject: `Registrieren Sie ${name}`,
      text:
        `Sie wurden eingeladen, die Organisation ${name} zu registrieren. ` +
        `Öffnen Sie diesen Link, um zu beginnen: ${link}`,
    }),
    en: ({ name, link }) => ({
      subject: `Register ${name}`,
      text:
        `You have been invited to register the organisation ${name}. ` +
        `Open this link to start: ${link}`,
    }),
    pl: ({ name, link }) => ({
      subject: `Zarejestruj ${name}`,
      text:
        `Zaproszono Cię do zarejestrowania organizacji ${name}. ` +
        `Otwórz ten link, aby rozpocząć: ${link}`,
    }),
  },
  passwordReset: {
    de: ({ link }) => ({
      subject: 'Passwort zurücksetzen',
      text:
        'Jemand möchte das Passwort Ihres Kontos zurücksetzen. Wenn Sie es waren, öffnen Sie ' +
        `innerhalb einer Stunde diesen Link: ${link}. Andernfalls ignorieren Sie diese E-Mail.`,
    }),
    en: ({ link }) => ({
      subject: 'Reset your password',
      text:
        'Someone asked to reset the password of your account. If it was you, open this ' +
        `link within one hour: ${link}. Otherwise ignore this e-mail.`,
    }),
    pl: ({ link }) => ({
      subject: 'Zresetuj hasło',
      text:
        'Ktoś poprosił o zresetowanie hasła do Twojego konta. Jeśli to Ty, otwórz ten link ' +
        `w ciągu godziny: ${link}. W przeciwnym razie zignoruj tę wiadomość.`,
    }),
  },
  // Sent by an administrator from the user page: the user asked for nothing themselves.
  adminPasswordReset: {
    de: ({ link }) => ({
      subject: 'Passwort zurücksetzen',
      text:
        'Eine Administratorin oder ein Administrator hat ein neues Passwort für Ihr Konto ' +
        `angefordert. Legen Sie es innerhalb einer Stunde fest: ${link}. Ihr bisheriges ` +
        'Passwort gilt bis dahin weiter.',
    }),
    en: ({ link }) => ({
      subject: 'Reset your password',
      text:
        'An administrator asked for a new password for your account. Set it within one ' +
        `hour: ${link}. Your current password keeps working until then.`,
    }),
    pl: ({ link }) => ({
      subject: 'Zresetuj hasło',
      text:
        'Administrator poprosił o nowe hasło do Twojego konta. Ustaw je w ciągu godziny: ' +
        `${link}. Dotychczasowe hasło działa do tego czasu.`,
    }),
  },
  // A user an administrator created directly (no invitation): they set their first password.
  welcome: {
    de: ({ link }) => ({
      subject: 'Ihr Konto ist eingerichtet',
      text:
        'Eine Administratorin oder ein Administrator hat ein Konto für Sie angelegt. ' +
        `Legen Sie Ihr Passwort innerhalb von 7 Tagen fest: ${link}`,
    }),
    en: ({ link }) => ({
      subject: 'Your account is ready',
      text: `An administrator created an account for you. Set your password within 7 days: ${link}`,
    }),
    pl: ({ link }) => ({
      subject: 'Twoje konto jest gotowe',
      text: `Administrator utworzył dla Ciebie konto. Ustaw hasło w ciągu 7 dni: ${link}`,
    }),
  },
} satisfies Record<
  string,
  Record<MailLanguage, (values: { link: string; name?: string; to?: string }) => MailText>
>;

export type MailKind = keyof typeof TEMPLATES;

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
  const template: (values: { link: string; name?: string; to?: string }) => MailText =
    TEMPLATES[mail.kind][language];
  const { subject, text } = template({
    link,
    ...(mail.name === undefined ? {} : { name: mail.name, to: mail.name }),
  });
  await sendMail(db, { tenantId: mail.tenantId, to: mail.to, subject, text, link });
}

/**
 * The notices a workflow sends (`notification.sendEmail?template=…`), per language: a letter
 * names the record by the number its reader knows (POL-…, the lead's number), never the internal
 * code. Values come from the workflow's variables, filled by the event that started it.
 */
const NOTICES = {
  policyTerminated: {
    de: ({ policyNumber, terminationDate }) => ({
      subject: `Kündigung des Vertrags ${policyNumber}`,
      text:
        `Wir bestätigen die Kündigung des Vertrags ${policyNumber}` +
        (terminationDate ? ` zum ${dottedDay(terminationDate)}.` : '.'),
    }),
    en: ({ policyNumber, terminationDate }) => ({
      subject: `Termination of policy ${policyNumber}`,
      text:
        `We confirm the termination of policy ${policyNumber}` +
        (terminationDate ? ` as of ${terminationDate}.` : '.'),
    }),
    pl: ({ policyNumber, terminationDate }) => ({
      subject: `Wypowiedzenie umowy ${policyNumber}`,
      text:
        `Potwierdzamy wypowiedzenie umowy ${policyNumber}` +
        (terminationDate ? ` z dniem ${dottedDay(terminationDate)}.` : '.'),
    }),
  },
  leadFollowUp: {
    de: ({ leadNumber }) => ({
      subject: `Lead ${leadNumber} nachfassen`,
      text: `Bitte melden Sie sich bei der Interessentin oder dem Interessenten von Lead ${leadNumber}.`,
    }),
    en: ({ leadNumber }) => ({
      subject: `Follow up lead ${leadNumber}`,
      text: `Please get in touch with the applicant of lead ${leadNumber}.`,
    }),
    pl: ({ leadNumber }) => ({
      subject: `Kontakt w sprawie leada ${leadNumber}`,
      text: `Skontaktuj się z wnioskodawcą leada ${leadNumber}.`,
    }),
  },
} satisfies Record<string, Record<MailLanguage, (values: Record<string, string>) => MailText>>;

export type NoticeKind = keyof typeof NOTICES;

/** What each notice cannot do without: a letter with no number would name nothing. */
const NOTICE_NEEDS: Record<NoticeKind, readonly string[]> = {
  policyTerminated: ['policyNumber'],
  leadFollowUp: ['leadNumber'],
};
export const isNoticeKind = (kind: string): kind is NoticeKind => Object.hasOwn(NOTICES, kind);

/** `2026-12-31` as a German or Polish reader writes a day: 31.12.2026. */
const dottedDay = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$3.$2.$1');

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
  const template: (values: Record<string, string>) => MailText = NOTICES[mail.kind][language];
  const { subject, text } = template(mail.values);
  await sendMail(db, { tenantId: mail.tenantId, to: mail.to, subject, text, link: null });
}
