import { noAccessUser as deNoAccess, product as deProduct } from '#locales/de/common.json';
import { errors as deErrors, login as deLogin } from '#locales/de/session.json';
import { noAccessUser as enNoAccess, product as enProduct } from '#locales/en/common.json';
import { errors as enErrors, login as enLogin } from '#locales/en/session.json';
import { noAccessUser as plNoAccess, product as plProduct } from '#locales/pl/common.json';
import { errors as plErrors, login as plLogin } from '#locales/pl/session.json';
import type { Language } from './language.ts';

/**
 * The few texts of the light sign-in page, in every language, without i18next: Vite's JSON import
 * keeps only the named top-level sections, so this is the sign-in strings and nothing more. The
 * keys and the fallback (German, then English, as `i18n.ts` configures i18next) are i18next's.
 */
type Messages = Record<string, unknown>;

const byLanguage: Record<Language, Messages> = {
  de: {
    login: deLogin,
    errors: deErrors,
    common: { noAccessUser: deNoAccess, product: deProduct },
  },
  en: {
    login: enLogin,
    errors: enErrors,
    common: { noAccessUser: enNoAccess, product: enProduct },
  },
  pl: {
    login: plLogin,
    errors: plErrors,
    common: { noAccessUser: plNoAccess, product: plProduct },
  },
};

function lookup(messages: Messages, path: string[]): string | undefined {
  let node: unknown = messages;
  for (const part of path) {
    node = node && typeof node === 'object' ? (node as Messages)[part] : undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

/** A translate function of the sign-in keys ('login.title', 'common:noAccessUser', ...). */
export function signInText(language: Language) {
  const chain =
    language === 'en' ? [byLanguage.en] : [byLanguage[language], byLanguage.de, byLanguage.en];
  return (key: string, values: { wait?: string; defaultValue?: string } = {}) => {
    // 'common:x' is namespace common; without a prefix the page's own namespace, session.
    const [namespace, rest] = key.includes(':') ? key.split(':', 2) : [undefined, key];
    const path = [...(namespace ? [namespace] : []), ...rest!.split('.')];
    const found = chain.map((messages) => lookup(messages, path)).find((s) => s !== undefined);
    const text = found ?? values.defaultValue ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
      String((values as Record<string, unknown>)[name] ?? ''),
    );
  };
}
