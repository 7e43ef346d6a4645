import type { RequestHandler } from 'express';
import { hasPermission } from '#common/permissions.ts';
import { HttpError, getAuth } from './http.ts';

/**
 * The insurance services accept a permission in its current form (`account-management.accounts.view`)
 * or in the legacy `eis.*` form of the older platform (`eis.accounts.view`): roles created before
 * the modules were split still carry the legacy names.
 */
export function requireServicePermission(
  module: string,
  resource: string,
  action: string,
): RequestHandler {
  const current = `${module}.${resource}.${action}`;
  const legacy = `eis.${resource}.${action}`;
  return (_req, res, next) => {
    const held = getAuth(res).permissions;
    if (!hasPermission(held, current) && !hasPermission(held, legacy)) {
      throw new HttpError(403, 'forbidden', `missing permission ${current}`);
    }
    next();
  };
}
