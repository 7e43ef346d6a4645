import type { Queryable } from './db.ts';
import { sendMail } from './admin-shared.ts';

/*
 * The e-mails the sandbox sends (invitations, password resets), in the language of the tenant
 * they come from, with links a mail client can open: absolute, built from the public address of
 * the back office (PUBLIC_BASE_URL). A relative link in an e-mail leads nowhere.
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

/** `path` (with its query) under the public base address: `https://bo.example/registration?…`. */
export function absoluteLink(publicBaseUrl: string, path: string): string {
  // Relative to the base's path, so that a back office under /app keeps it.
  const base = publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`;
  return new URL(path.replace(/^\/+/, ''), base).href;
}

/** Writes the e-mail of `kind` in the tenant's language, its link absolute. */
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
  },
): Promise<void> {
  const language = await tenantLanguage(db, mail.tenantId);
  const link = absoluteLink(mail.publicBaseUrl, mail.path);
  const template: (values: { link: string; name?: string; to?: string }) => MailText =
    TEMPLATES[mail.kind][language];
  const { subject, text } = template({
    link,
    ...(mail.name === undefined ? {} : { name: mail.name, to: mail.name }),
  });
  await sendMail(db, { tenantId: mail.tenantId, to: mail.to, subject, text, link });
}
