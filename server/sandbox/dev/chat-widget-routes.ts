import { readFileSync } from 'node:fs';
import { Router } from 'express';
import * as v from 'valibot';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { sandboxFile } from '#server/sandbox/platform/paths.ts';

/** Versions the sandbox hosts the widget for: `1`, `1.2`, `1.2.3`, optionally with a `v`. */
export const WIDGET_VERSION = /^v?\d{1,3}(?:\.\d{1,3}){0,2}$/;

const WebhookBody = v.object({
  message: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(1000)),
});

/**
 * Stands in for a tenant's chat provider (spec, section 7: the widget script comes from the own
 * origin under a path with the version and widget.js). The BFF forwards `/chat-widget/*` here
 * only when the sandbox is embedded; in front of the real services that path is the provider's.
 * `POST /chat-widget/webhook` is the demo webhook the widget talks to: it answers with an echo.
 */
export function chatWidgetRouter(): Router {
  const script = readFileSync(sandboxFile('dev/chat-widget/widget.js'), 'utf8');
  const router = Router();

  router.get('/:version/widget.js', (req, res) => {
    if (!WIDGET_VERSION.test(String(req.params.version))) {
      throw new HttpError(404, 'not_found', 'no widget of that version');
    }
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      // A versioned path: the script element may reuse what the content-type check fetched.
      'Cache-Control': 'public, max-age=300',
    });
    res.send(script);
  });

  router.post('/webhook', (req, res) => {
    const body = parseBody(WebhookBody, req.body);
    res.json({ reply: `Sandbox assistant: you wrote “${body.message}”.` });
  });

  return router;
}
