import { Router } from 'express';
import type { Db } from './db.ts';
import { HttpError } from './http.ts';

/**
 * Sandbox-only test API: the e-mails the sandbox would have sent, newest first, so that testers
 * and e2e tests follow the real links. It exists only in the sandbox; the real upstream has no
 * such endpoint, and the BFF decides whether to expose it.
 */
export function outboxRouter(db: Db): Router {
  const router = Router();
  router.get('/outbox', async (req, res) => {
    const to = req.query.to;
    if (to !== undefined && (typeof to !== 'string' || to.length > 320)) {
      throw new HttpError(400, 'invalid_query', 'to: one e-mail address');
    }
    const items = await db.query(
      `SELECT id, to_email AS "to", subject, text, link, created_at AS "createdAt"
         FROM outbox_emails WHERE ($1::text IS NULL OR lower(to_email) = lower($1))
        ORDER BY id DESC LIMIT 100`,
      [to || null],
    );
    res.json({ items });
  });
  return router;
}
