import common from '#locales/en/common.json';
import errors from '#locales/en/errors.json';
import help from '#locales/en/help.json';
import profile from '#locales/en/profile.json';
import session from '#locales/en/session.json';
import shell from '#locales/en/shell.json';
import ui from '#locales/en/ui.json';
import kit from '#locales/en/kit.json';

/** English is bundled: it is the default language, and the keys' types come from it. */
export const englishResources = {
  common,
  errors,
  help,
  profile,
  session,
  shell,
  ui,
  kit,
} as const;

export const namespaces = Object.keys(englishResources) as (keyof typeof englishResources)[];
export type Namespace = (typeof namespaces)[number];
