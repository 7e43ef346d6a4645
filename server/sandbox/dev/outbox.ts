import { Router } from 'express';
import type { Db } from '#server/sandbox/platform/db.ts';
import { escapeHtml, sendPage } from './html-page.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/**
 * Sandbox-only test API: the e-mails the sandbox would have sent, newest first, so that testers
 * and e2e tests follow the real links. It exists only in the sandbox; the real upstream has no
 * such endpoint, and the BFF decides whether to expose it.
 */
interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  /** The HTML part of an e-mail rendered from a template (issue 19); null for older ones. */
  html: string | null;
  link: string | null;
  createdAt: string;
}

function recipientOf(query: unknown): string | null {
  if (query === undefined || query === '') return null;
  if (typeof query !== 'string' || query.length > 320) {
    throw new HttpError(400, 'invalid_query', 'to: one e-mail address');
  }
  return query.trim() || null;
}

export function outboxRouter(db: Db): Router {
  const router = Router();

  const newest = (to: string | null) =>
    db.query<OutboxEmail>(
      `SELECT id, to_email AS "to", subject, text, html, link, created_at AS "createdAt"
         FROM outbox_emails WHERE ($1::text IS NULL OR lower(to_email) = lower($1))
        ORDER BY id DESC LIMIT 100`,
      [to],
    );

  router.get('/outbox', async (req, res) => {
    res.json({ items: await newest(recipientOf(req.query.to)) });
  });

  // The same list for people: testers open the invitation and reset links from here.
  router.get('/mail', async (req, res) => {
    const to = recipientOf(req.query.to);
    const items = await newest(to);
    const list = items.length
      ? `<ol>${items
          .map(
            (m) => `<li><article>
<h2>${escapeHtml(m.subject)}</h2>
<p>To ${escapeHtml(m.to)}, ${escapeHtml(new Date(m.createdAt).toISOString())}</p>
<pre>${escapeHtml(m.text)}</pre>
${m.link ? `<p><a href="${escapeHtml(m.link)}">Open the link of this e-mail</a></p>` : ''}
</article></li>`,
          )
          .join('\n')}</ol>`
      : '<p>No e-mails.</p>';
    sendPage(
      res,
      200,
      'Sandbox outbox',
      `<p>E-mails the sandbox would have sent (newest first, at most 100). This page exists only in the sandbox.</p>
<form method="get" action="/sandbox/mail">
<label for="to">Recipient</label>
<input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}">
<button type="submit">Show</button>
</form>
${list}`,
    );
  });

  return router;
}
