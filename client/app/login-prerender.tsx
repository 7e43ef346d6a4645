import { renderToString } from 'react-dom/server';
import { signInText } from '#client/i18n/sign-in-text.ts';
import { languages, type Language } from '#client/i18n/language.ts';
import { documentTitle } from '#client/ui/document-title.ts';
import { quickSignInPage } from './quick-sign-in.tsx';

/**
 * The sign-in page as HTML, per language, for the build to put into `login.<language>.html`
 * (scripts/vite-prerender-login.ts): the same element the entry hydrates, rendered without a
 * query and before the session machine is there, as the browser's first render is.
 */
export function prerenderLogin(language: Language): { html: string; title: string } {
  const t = signInText(language);
  return {
    html: renderToString(quickSignInPage(language, '')),
    title: documentTitle(t('login.title'), t('common:product.name')),
  };
}

export { languages };
