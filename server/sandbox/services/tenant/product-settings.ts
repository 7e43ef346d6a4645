import type { RequestHandler } from 'express';
import * as v from 'valibot';
import { hasPermission } from '#common/permissions.ts';
import { PRODUCT_SETTING_SCHEMAS, productSettingOf } from '#common/product-settings.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth } from '#server/sandbox/platform/auth-context.ts';

/**
 * Product settings are tenant settings (`bf_custom_css_{slug}`, `summary_label_setting_{slug}`),
 * but they are a product manager's to keep: a call that reads or writes only product setting keys
 * is allowed with the products permission as well as with the tenant settings one.
 */

export function tenantSettingsAccess(action: 'view' | 'update'): RequestHandler {
  return (req, res, next) => {
    const held = getAuth(res).permissions;
    const keys =
      action === 'view'
        ? String(typeof req.query.keys === 'string' ? req.query.keys : '')
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : [String((req.body as { key?: unknown } | undefined)?.key ?? '')];
    const onlyProductKeys = keys.length > 0 && keys.every((k) => productSettingOf(k) !== null);
    const allowed =
      hasPermission(held, `tenant-management.settings.${action}`) ||
      (onlyProductKeys &&
        (hasPermission(held, `policy-management.products.${action}`) ||
          hasPermission(held, `eis.products.${action}`)));
    if (!allowed) {
      throw new HttpError(
        403,
        'forbidden',
        `missing permission tenant-management.settings.${action}`,
      );
    }
    next();
  };
}

/**
 * A product setting must name a product of the tenant and hold a value of its kind; answers the
 * value to store (a label trimmed). Other keys pass unchanged.
 */
export async function checkProductSetting(
  db: Queryable,
  tenantId: number,
  key: string,
  value: unknown,
): Promise<unknown> {
  const setting = productSettingOf(key);
  if (!setting) return value;
  const result = v.safeParse(PRODUCT_SETTING_SCHEMAS[setting.kind], value);
  if (!result.success) {
    throw new HttpError(
      400,
      'validation_error',
      `value: ${result.issues[0]?.message ?? 'invalid'}`,
    );
  }
  const [product] = await db.query('SELECT 1 FROM products WHERE tenant_id = $1 AND slug = $2', [
    tenantId,
    setting.productSlug,
  ]);
  if (!product) {
    throw new HttpError(400, 'validation_error', `key: no product ${setting.productSlug}`);
  }
  return result.output;
}
