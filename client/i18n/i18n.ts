import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLanguage, type Language } from './language.ts';
import { bundledEnglish, bundledNamespaces, isLazyNamespace, lazyEnglish } from './resources.ts';

/**
 * German and Polish are fetched on demand from the BFF, versioned by the build id so that a
 * deployment never mixes old translations with new code.
 */
const localeBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language: string, namespace: string, callback: ReadCallback) {
    if (language === 'en') {
      if (isLazyNamespace(namespace)) {
        lazyEnglish[namespace]()
          .then((module) => callback(null, module.default))
          .catch((error: unknown) => callback(error as Error, false));
      } else callback(null, {});
      return;
    }
    fetch(`/locales/${language}/${namespace}.json?v=${__BUILD_ID__}`, {
      credentials: 'same-origin',
    })
      .then((response) => {
        if (!response.ok) throw new Error(`locale ${language}/${namespace}: ${response.status}`);
        return response.json() as Promise<Record<string, unknown>>;
      })
      .then((data) => callback(null, data))
      .catch((error: unknown) => callback(error as Error, false));
  },
};

function setDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

export async function initI18n(language: Language = detectLanguage()): Promise<typeof i18next> {
  i18next.on('languageChanged', setDocumentLanguage);
  await i18next
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: ['de', 'en', 'pl'],
      // English is the default choice; where a key is missing German is the fallback (spec,
      // section 1), then English, which is complete and bundled.
      fallbackLng: (code: string) => (code === 'en' ? ['en'] : ['de', 'en']),
      // Feature namespaces load with their screen (useTranslation suspends until they arrive).
      ns: bundledNamespaces,
      defaultNS: 'common',
      resources: { en: bundledEnglish },
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  setDocumentLanguage(i18next.language);
  return i18next;
}
