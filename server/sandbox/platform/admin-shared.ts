import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { CUSTOM_TEXT_DEFAULT_MAX } from '#common/custom-schema-field.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { hasPermission } from '#common/permissions.ts';
import type { Queryable } from './db.ts';
import { HttpError, invalidField } from './errors.ts';

export const INVITE_TTL_SECONDS = 7 * 24 * 3600;
export const RESET_TTL_SECONDS = 3600;

export function newCode(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

// The body pieces the tenant and guest routes share are the tenant service's contract.
import { emailAddress } from '#common/contracts/tenant.ts';
import { normalizePhone } from '#common/account-fields.ts';
import { INVALID_ZIP, postcodeFitsCountry } from '#common/postcodes.ts';
export {
  addressFields,
  customFieldValues,
  emailAddress,
  idList,
  roleCodeList,
  roleIdList,
} from '#common/contracts/tenant.ts';

export interface RoleWithPermissions {
  id: number;
  code: string;
  label: string;
  permissions: string[];
}

/**
 * Looks up the roles named by id or code in the caller's tenant. An unknown or foreign role is a
 * 400: the request names something that does not exist for this tenant.
 */
export async function resolveRoles(
  db: Queryable,
  tenantId: number,
  ref: { roleIds?: number[] | undefined; roleCodes?: string[] | undefined },
): Promise<RoleWithPermissions[]> {
  const ids = [...new Set(ref.roleIds ?? [])];
  const codes = [...new Set(ref.roleCodes ?? [])];
  if (!ids.length && !codes.length) return [];
  const rows = await db.query<{
    id: number;
    code: string;
    label: string;
    permission: string | null;
  }>(
    `SELECT r.id, r.code, r.label, rp.permission
       FROM roles r LEFT JOIN role_permissions rp ON rp.role_id = r.id
      WHERE r.tenant_id = $1 AND (r.id = ANY($2::int[]) OR r.code = ANY($3::text[]))
      ORDER BY r.id, rp.permission`,
    [tenantId, ids, codes],
  );
  const roles = new Map<number, RoleWithPermissions>();
  for (const row of rows) {
    let role = roles.get(row.id);
    if (!role)
      roles.set(row.id, (role = { id: row.id, code: row.code, label: row.label, permissions: [] }));
    if (row.permission) role.permissions.push(row.permission);
  }
  const found = [...roles.values()];
  const missingId = ids.find((id) => !roles.has(id));
  const missingCode = codes.find((code) => !found.some((r) => r.code === code));
  if (missingId !== undefined || missingCode !== undefined) {
    throw new HttpError(400, 'unknown_role', `unknown role ${missingId ?? missingCode}`);
  }
  return found;
}

/**
 * Nobody grants what they do not hold: every permission must be covered by the caller's own
 * permissions, checked with the same matcher that guards the endpoints.
 */
export function assertGrantable(held: readonly string[], permissions: readonly string[]): void {
  const missing = permissions.find((p) => !hasPermission(held, p));
  if (missing !== undefined) {
    throw new HttpError(403, 'escalation', `you cannot grant ${missing}, which you do not hold`);
  }
}

/** Writes an e-mail the sandbox would send; testers and e2e tests read it from the outbox. */
export async function sendMail(
  db: Queryable,
  mail: {
    tenantId: number;
    to: string;
    subject: string;
    text: string;
    /** The HTML part of an e-mail rendered from a template (issue 19). */
    html?: string;
    link: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO outbox_emails (tenant_id, to_email, subject, text, html, link)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [mail.tenantId, mail.to, mail.subject, mail.text, mail.html ?? null, mail.link],
  );
}

export interface CustomSchemaField {
  name: string;
  label?: string;
  /** The label per language (common/custom-schema-field.ts). */
  labels?: NameLabels;
  type: string;
  isRequired?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  options?: unknown[];
  regexExpression?: string;
}

export interface CustomSchema {
  id: number;
  code: string;
  productCode: string | null;
  entity: string;
  fields: CustomSchemaField[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  updatedBy: string;
}

export async function customSchemasOf(
  db: Queryable,
  tenantId: number,
  entity?: string,
): Promise<CustomSchema[]> {
  const rows = await db.query<{
    id: number;
    code: string;
    product_code: string | null;
    entity: string;
    fields: CustomSchemaField[];
    version: number;
    created_at: Date;
    updated_at: Date;
    created_by: string;
    updated_by: string;
  }>(
    `SELECT id, code, product_code, entity, fields, version, created_at, updated_at, created_by,
            updated_by
       FROM custom_schemas WHERE tenant_id = $1 AND ($2::text IS NULL OR entity = $2) ORDER BY id`,
    [tenantId, entity ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    productCode: r.product_code,
    entity: r.entity,
    fields: r.fields,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
  }));
}

/**
 * Checks custom field values against a schema the way the registration forms do; unknown keys are
 * dropped so that a client cannot store arbitrary data through the custom fields.
 */
export function checkCustomFields(
  schema: CustomSchema | null,
  values: Record<string, unknown>,
): Record<string, unknown> {
  if (!schema) return {};
  const result: Record<string, unknown> = {};
  const fail = (name: string, why: string): never => {
    throw invalidField(`customFields.${name}`, why.replace(/[^a-z]+/g, '_'), why);
  };
  for (const field of schema.fields) {
    const value = values[field.name];
    if (value === undefined || value === null || value === '') {
      if (field.isRequired) fail(field.name, 'required');
      continue;
    }
    if (field.type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value))
        fail(field.name, 'must be a number');
      const n = value as number;
      if (field.minimum !== undefined && n < field.minimum) fail(field.name, 'below minimum');
      if (field.maximum !== undefined && n > field.maximum) fail(field.name, 'above maximum');
    } else if (field.type === 'boolean') {
      if (typeof value !== 'boolean') fail(field.name, 'must be a boolean');
    } else if (field.type === 'array') {
      // A list of texts; with options, of those options only (the form's checkboxes).
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
        fail(field.name, 'must be an array');
      }
      const options = field.options;
      if (options && (value as string[]).some((item) => !options.includes(item))) {
        fail(field.name, 'invalid option');
      }
      if (field.isRequired && (value as string[]).length === 0) fail(field.name, 'required');
    } else if (field.type === 'object') {
      if (typeof value !== 'object' || Array.isArray(value)) fail(field.name, 'must be an object');
    } else {
      if (typeof value !== 'string') fail(field.name, 'must be a string');
      const s = value as string;
      if (field.minLength !== undefined && s.length < field.minLength)
        fail(field.name, 'too short');
      if (s.length > (field.maxLength ?? CUSTOM_TEXT_DEFAULT_MAX)) fail(field.name, 'too long');
      if (field.type === 'email' && !v.is(emailAddress, s)) fail(field.name, 'invalid e-mail');
      if (field.type === 'phone' && normalizePhone(s) === null) fail(field.name, 'invalid phone');
      if ((field.type === 'date' || field.type === 'dateTime') && Number.isNaN(Date.parse(s))) {
        fail(field.name, 'invalid date');
      }
    }
    result[field.name] = value;
  }
  return result;
}

/**
 * 400 `zipCode: invalid_zip` unless the postcode fits the country (issue 15 point 5; DE 5 digits,
 * PL NN-NNN, AT and CH 4 digits, others free): the rule the organisation forms and the
 * registration wizards check too, for every address the tenant and guest services take.
 */
export function assertPostcodeFitsCountry(address: { zipCode?: string; country?: string }): void {
  if (!postcodeFitsCountry(address.zipCode ?? '', address.country ?? '')) {
    throw invalidField('zipCode', INVALID_ZIP, "the postcode does not fit the country's format");
  }
}

export function escapeLike(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
