import type { TemplateKind } from './template-variables.ts';

/**
 * The e-mails the sandbox sends by itself, as every workspace starts with them: a layout and one
 * system template per e-mail, in German, English and Polish. A workspace edits them in the
 * e-mail editor; it cannot delete them (the invitations would have no text), only change them.
 * The texts are the ones the sandbox sent before templates existed (issue 16's wording).
 */

export const TEMPLATE_LANGUAGES = ['de', 'en', 'pl'] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

export interface TemplateBody {
  subject: string;
  html: string;
  text: string;
}
export type TemplateBodies = Record<TemplateLanguage, TemplateBody>;

export const SYSTEM_LAYOUT = {
  name: 'Standard',
  html:
    '<div style="font-family: Arial, sans-serif; font-size: 15px; color: #1f2937; max-width: 600px">\n' +
    '{{ content }}\n' +
    '<p style="color: #6b7280; font-size: 12px; margin-top: 32px">{{ tenant.name }}</p>\n' +
    '</div>',
  text: '{{ content }}\n\n-- \n{{ tenant.name }}',
};

/** One paragraph of text and a link, the shape of most system e-mails, in both parts. */
const withLink = (subject: string, before: string, linkText: string, after = ''): TemplateBody => ({
  subject,
  html:
    `<p>${before}</p>\n<p><a href="{{ link }}">${linkText}</a></p>` +
    (after ? `\n<p>${after}</p>` : ''),
  text: `${before}\n\n{{ link }}` + (after ? `\n\n${after}` : ''),
});
const plain = (subject: string, text: string): TemplateBody => ({
  subject,
  html: `<p>${text}</p>`,
  text,
});

export const SYSTEM_TEMPLATES: Record<
  Exclude<TemplateKind, 'policy'>,
  { slug: string; name: string; bodies: TemplateBodies }
> = {
  userInvitation: {
    slug: 'user-invitation',
    name: 'Invitation to the workspace',
    bodies: {
      de: withLink(
        'Sie wurden eingeladen',
        'Sie wurden eingeladen, {{ workspace.name | default: "dem Arbeitsbereich" }} beizutreten. Schließen Sie Ihre Registrierung innerhalb von 7 Tagen ab.',
        'Registrierung abschließen',
      ),
      en: withLink(
        'You have been invited',
        'You have been invited to join {{ workspace.name | default: "the workspace" }}. Complete your registration within 7 days.',
        'Complete your registration',
      ),
      pl: withLink(
        'Otrzymano zaproszenie',
        'Zaproszono Cię do {{ workspace.name | default: "obszaru roboczego" }}. Dokończ rejestrację w ciągu 7 dni.',
        'Dokończ rejestrację',
      ),
    },
  },
  organizationInvitation: {
    slug: 'organization-invitation',
    name: 'Invitation to register an organisation',
    bodies: {
      de: withLink(
        'Registrieren Sie {{ organization.name }}',
        'Sie wurden eingeladen, die Organisation {{ organization.name }} zu registrieren.',
        'Registrierung beginnen',
      ),
      en: withLink(
        'Register {{ organization.name }}',
        'You have been invited to register the organisation {{ organization.name }}.',
        'Start the registration',
      ),
      pl: withLink(
        'Zarejestruj {{ organization.name }}',
        'Zaproszono Cię do zarejestrowania organizacji {{ organization.name }}.',
        'Rozpocznij rejestrację',
      ),
    },
  },
  passwordReset: {
    slug: 'password-reset',
    name: 'Password reset',
    bodies: {
      de: withLink(
        'Passwort zurücksetzen',
        'Jemand möchte das Passwort Ihres Kontos zurücksetzen. Wenn Sie es waren, öffnen Sie innerhalb einer Stunde diesen Link.',
        'Passwort zurücksetzen',
        'Andernfalls ignorieren Sie diese E-Mail.',
      ),
      en: withLink(
        'Reset your password',
        'Someone asked to reset the password of your account. If it was you, open this link within one hour.',
        'Reset your password',
        'Otherwise ignore this e-mail.',
      ),
      pl: withLink(
        'Zresetuj hasło',
        'Ktoś poprosił o zresetowanie hasła do Twojego konta. Jeśli to Ty, otwórz ten link w ciągu godziny.',
        'Zresetuj hasło',
        'W przeciwnym razie zignoruj tę wiadomość.',
      ),
    },
  },
  // Sent by an administrator from the user page: the user asked for nothing themselves.
  adminPasswordReset: {
    slug: 'admin-password-reset',
    name: 'Password reset by an administrator',
    bodies: {
      de: withLink(
        'Passwort zurücksetzen',
        'Eine Administratorin oder ein Administrator hat ein neues Passwort für Ihr Konto angefordert. Legen Sie es innerhalb einer Stunde fest.',
        'Neues Passwort festlegen',
        'Ihr bisheriges Passwort gilt bis dahin weiter.',
      ),
      en: withLink(
        'Reset your password',
        'An administrator asked for a new password for your account. Set it within one hour.',
        'Set a new password',
        'Your current password keeps working until then.',
      ),
      pl: withLink(
        'Zresetuj hasło',
        'Administrator poprosił o nowe hasło do Twojego konta. Ustaw je w ciągu godziny.',
        'Ustaw nowe hasło',
        'Dotychczasowe hasło działa do tego czasu.',
      ),
    },
  },
  // A user an administrator created directly (no invitation): they set their first password.
  welcome: {
    slug: 'welcome',
    name: 'Account created',
    bodies: {
      de: withLink(
        'Ihr Konto ist eingerichtet',
        'Eine Administratorin oder ein Administrator hat ein Konto für Sie angelegt. Legen Sie Ihr Passwort innerhalb von 7 Tagen fest.',
        'Passwort festlegen',
      ),
      en: withLink(
        'Your account is ready',
        'An administrator created an account for you. Set your password within 7 days.',
        'Set your password',
      ),
      pl: withLink(
        'Twoje konto jest gotowe',
        'Administrator utworzył dla Ciebie konto. Ustaw hasło w ciągu 7 dni.',
        'Ustaw hasło',
      ),
    },
  },
  // A workflow's notices name the record by the number its reader knows, never the code.
  policyTerminated: {
    slug: 'policy-terminated',
    name: 'Policy terminated',
    bodies: {
      de: plain(
        'Kündigung des Vertrags {{ policy.number }}',
        'Wir bestätigen die Kündigung des Vertrags {{ policy.number }}{% if policy.terminationDate %} zum {{ policy.terminationDate | date: "%d.%m.%Y" }}{% endif %}.',
      ),
      en: plain(
        'Termination of policy {{ policy.number }}',
        'We confirm the termination of policy {{ policy.number }}{% if policy.terminationDate %} as of {{ policy.terminationDate }}{% endif %}.',
      ),
      pl: plain(
        'Wypowiedzenie umowy {{ policy.number }}',
        'Potwierdzamy wypowiedzenie umowy {{ policy.number }}{% if policy.terminationDate %} z dniem {{ policy.terminationDate | date: "%d.%m.%Y" }}{% endif %}.',
      ),
    },
  },
  leadFollowUp: {
    slug: 'lead-follow-up',
    name: 'Lead follow-up',
    bodies: {
      de: plain(
        'Lead {{ lead.number }} nachfassen',
        'Bitte melden Sie sich bei der Interessentin oder dem Interessenten von Lead {{ lead.number }}.',
      ),
      en: plain(
        'Follow up lead {{ lead.number }}',
        'Please get in touch with the applicant of lead {{ lead.number }}.',
      ),
      pl: plain(
        'Kontakt w sprawie leada {{ lead.number }}',
        'Skontaktuj się z wnioskodawcą leada {{ lead.number }}.',
      ),
    },
  },
};
