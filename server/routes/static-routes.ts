import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import { sendError } from '#server/http-errors.ts';

/** The languages of the prerendered sign-in page, English first: the default without a match. */
const PRERENDERED_LANGUAGES = ['en', 'de', 'pl'] as const;

/** The built SPA and the locale files. Hashed assets are immutable for a year; index.html is
 * never cached so a deploy takes effect on the next load. */
export function staticRoutes(opts: {
  clientDir: string;
  localesDir: string;
  buildId: string;
}): Router {
  const r = Router();
  const index = join(opts.clientDir, 'index.html');

  r.use(
    '/locales',
    (req, res, next) => {
      // Only `{lng}/{ns}.json`; the version parameter makes a cached copy safe to keep forever.
      if (!/^\/(de|en|pl)\/[a-z0-9_-]+\.json$/.test(req.path))
        return sendError(res, 404, 'not_found');
      res.set(
        'cache-control',
        req.query.v === opts.buildId ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      next();
    },
    express.static(opts.localesDir, { cacheControl: false, fallthrough: false, index: false }),
  );

  r.use(
    '/assets',
    express.static(join(opts.clientDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      fallthrough: false,
      index: false,
    }),
  );
  r.use(
    express.static(opts.clientDir, {
      index: false,
      setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
    }),
  );

  // The sign-in page with its form already in the HTML (issue 14, first paint), in the browser's
  // language as the client would pick it without a stored choice; the entry hydrates it. Without
  // those files (a build from before them) the plain SPA page below serves.
  r.get(/^\/login\/?$/, (req: Request, res: Response, next) => {
    const language = req.acceptsLanguages(...PRERENDERED_LANGUAGES) || 'en';
    const page = join(opts.clientDir, `login.${language}.html`);
    if (!existsSync(page)) return next();
    res.set({ 'cache-control': 'no-cache', vary: 'Accept-Language' });
    res.sendFile(page);
  });

  // Every other GET that wants a page gets the SPA; the client router decides (and shows 404).
  r.get(/.*/, (req: Request, res: Response) => {
    if (!existsSync(index)) {
      return sendError(
        res,
        503,
        'client_not_built',
        'The client is not built yet: run npm run build.',
      );
    }
    res.set('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return r;
}
