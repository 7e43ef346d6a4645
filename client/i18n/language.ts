/** Interface languages of the spec; `de-DE`, `en-US`, `pl-PL` in date and number formats. */
export const languages = ['de', 'en', 'pl'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';
export const localeOf: Record<Language, string> = { de: 'de-DE', en: 'en-US', pl: 'pl-PL' };

// The user's explicit choice in the language switcher.
const CHOSEN_KEY = 'bo.language';
// The tenant's general settings, cached (spec: "general settings cached in local storage").
const GENERAL_KEY = 'bo.general';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Without storage the language simply falls back to the browser's.
  }
}

/** The tenant's general settings as last loaded on this browser, or null. */
export function readCachedGeneral(): Record<string, unknown> | null {
  try {
    const general: unknown = JSON.parse(read(GENERAL_KEY) ?? 'null');
    return general && typeof general === 'object' ? (general as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function readCachedGeneralLanguage(): Language | undefined {
  const language = readCachedGeneral()?.language;
  return isLanguage(language) ? language : undefined;
}

export function cacheGeneralSettings(general: { language?: string }): void {
  write(GENERAL_KEY, JSON.stringify(general));
}

export function readChosenLanguage(): Language | undefined {
  const chosen = read(CHOSEN_KEY);
  return isLanguage(chosen) ? chosen : undefined;
}

export function storeChosenLanguage(language: Language): void {
  write(CHOSEN_KEY, language);
}

/**
 * The start language: the user's own choice, else the stored general setting of the tenant,
 * else the first supported browser language, else English.
 */
export function detectLanguage(
  browserLanguages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): Language {
  const chosen = readChosenLanguage();
  if (chosen) return chosen;
  const general = readCachedGeneralLanguage();
  if (general) return general;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return defaultLanguage;
}

/** The key of the user's own language in their settings (`GET/POST /settings/user`). */
export const USER_LANGUAGE_SETTING = 'language';

/**
 * The language a freshly loaded account should switch to, or undefined to keep the current one:
 * the choice made on this browser (switcher or profile) wins, then the user's own setting (so a
 * choice follows the user to another browser), then the tenant's general setting.
 */
export function loadedLanguage(
  chosen: Language | undefined,
  userSetting: unknown,
  tenantLanguage: unknown,
): Language | undefined {
  if (chosen) return undefined;
  if (isLanguage(userSetting)) return userSetting;
  if (isLanguage(tenantLanguage)) return tenantLanguage;
  return undefined;
}
