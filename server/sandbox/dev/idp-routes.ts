import { Router } from 'express';
import * as v from 'valibot';
import type { Clock } from '#common/clock.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { SAML_CODE_TTL_SECONDS, createCode } from '#server/sandbox/services/auth/index.ts';
import { escapeHtml, sendPage } from './html-page.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';

const IdpLoginBody = v.object({
  tenantSlug: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
  user: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
});

async function activeTenant(db: Db, slug: string): Promise<{ id: number; name: string } | null> {
  const [tenant] = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM tenants WHERE slug = $1 AND NOT is_disabled',
    [slug],
  );
  return tenant ?? null;
}

/** A stand-in identity provider: whoever reaches it picks a user, so it exists only in sandboxes. */
export function idpRouter(db: Db, clock: Clock): Router {
  const router = Router();

  router.get('/login', async (req, res) => {
    const slug = typeof req.query.tenantSlug === 'string' ? req.query.tenantSlug.trim() : '';
    const tenant = slug ? await activeTenant(db, slug) : null;
    if (!tenant) {
      sendPage(res, 404, 'Sandbox sign-in', '<p>Unknown workspace.</p>');
      return;
    }
    const users = await db.query<{
      code: string;
      email: string;
      first_name: string;
      last_name: string;
    }>(
      `SELECT u.code, u.email, u.first_name, u.last_name
         FROM users u JOIN tenant_users tu ON tu.user_id = u.id
        WHERE tu.tenant_id = $1 AND u.status = 'active'
        ORDER BY u.email`,
      [tenant.id],
    );
    const options = users
      .map(
        (u) =>
          `<option value="${escapeHtml(u.code)}">${escapeHtml(
            `${u.first_name} ${u.last_name} <${u.email}>`.trim(),
          )}</option>`,
      )
      .join('\n');
    sendPage(
      res,
      200,
      `Sandbox sign-in: ${tenant.name}`,
      `<form method="post" action="/sandbox-idp/login">
<input type="hidden" name="tenantSlug" value="${escapeHtml(slug)}">
<label for="user">User</label>
<select id="user" name="user" required>
${options}
</select>
<button type="submit">Sign in</button>
</form>`,
    );
  });

  router.post('/login', async (req, res) => {
    const body = parseBody(IdpLoginBody, req.body);
    const tenant = await activeTenant(db, body.tenantSlug);
    if (!tenant) throw new HttpError(404, 'not_found', 'tenant not found');
    const [user] = await db.query<{ id: number }>(
      `SELECT u.id FROM users u JOIN tenant_users tu ON tu.user_id = u.id
        WHERE tu.tenant_id = $1 AND u.code = $2 AND u.status = 'active'`,
      [tenant.id, body.user],
    );
    if (!user) throw new HttpError(400, 'validation_error', 'user: not a user of this workspace');
    const code = await createCode(db, clock, 'saml', user.id, tenant.id, SAML_CODE_TTL_SECONDS);
    const query = new URLSearchParams({ tenantSlug: body.tenantSlug, code });
    res.redirect(303, `/login/saml?${query.toString()}`);
  });

  return router;
}
