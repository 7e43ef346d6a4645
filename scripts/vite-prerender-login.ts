import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

type Prerender = typeof import('../client/app/login-prerender.tsx');

/**
 * After the client build, writes `login.<language>.html` beside `index.html`: the same page with
 * the sign-in form already in `#root`, so /login paints before any script has run (issue 14,
 * first paint). The server picks the file by the browser's languages (server/routes/
 * static-routes.ts); the entry then hydrates that markup (client/app/quick-sign-in.tsx).
 *
 * The form is rendered by Vite's SSR module loader over the client sources, so it is the very
 * component the browser runs, with the same JSON and path imports. No inline script or style is
 * added: the strict CSP holds.
 */
export function prerenderLoginPage(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'prerender-login',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      // Its own loader, without this config file: loading it again would add this plugin again.
      const loader = await createServer({
        configFile: false,
        root: config.root,
        define: config.define,
        plugins: [react()],
        logLevel: 'warn',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const { prerenderLogin, languages } = (await loader.ssrLoadModule(
          '/app/login-prerender.tsx',
        )) as Prerender;
        const index = readFileSync(resolve(outDir, 'index.html'), 'utf8');
        for (const language of languages) {
          const { html, title } = prerenderLogin(language);
          writeFileSync(
            resolve(outDir, `login.${language}.html`),
            fillIndex(index, language, html, title),
          );
        }
      } finally {
        await loader.close();
      }
    },
  };
}

/** The built index.html with the page's language, title and markup; nothing else changes. */
export function fillIndex(index: string, language: string, html: string, title: string): string {
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const filled = index
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escaped}</title>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-prerendered="${language}">${html}</div>`,
    );
  if (!filled.includes('data-prerendered'))
    throw new Error('index.html has no empty #root to fill');
  return filled;
}
