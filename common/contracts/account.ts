import * as v from 'valibot';
import {
  ACCOUNT_GENDERS,
  ACCOUNT_TITLES,
  ACCOUNT_TYPES,
  AccountFields,
} from '#common/account-fields.ts';
import type { AccountInput } from '#common/account-fields.ts';
import { AuditEntries, Id, Int, IsoDate, JsonRecord } from './shared.ts';

/**
 * The accountservice's records and bodies (docs/contracts.md, "Insurance: customers and
 * partners"). The editable fields and their rules are common/account-fields.ts, which the
 * customer form checks with too.
 */

export const AccountSchema = v.strictObject({
  id: Id,
  code: v.string(),
  accountNumber: v.string(),
  type: v.picklist(ACCOUNT_TYPES),
  title: v.picklist(ACCOUNT_TITLES),
  firstName: v.string(),
  lastName: v.string(),
  companyName: v.nullable(v.string()),
  email: v.string(),
  gender: v.picklist(ACCOUNT_GENDERS),
  street: v.string(),
  houseNumber: v.string(),
  zipCode: v.string(),
  city: v.string(),
  birthDate: v.nullable(IsoDate),
  phone: v.nullable(v.string()),
  brokerCode: v.nullable(v.string()),
  customFields: JsonRecord,
  /** The contract's field; the sandbox's policies live in the insurance service, so it is empty. */
  policies: v.array(v.unknown()),
  version: Int,
  ern: v.string(),
  ...AuditEntries,
  /** Who saved this version, by name (null: the system, or a user without a name); absent where
   * the record comes expanded inside another (a lead's or a policy's customer). */
  updatedByName: v.optional(v.nullable(v.string())),
});
export type Account = v.InferOutput<typeof AccountSchema>;

/** POST /accounts. */
export const AccountCreateBody = AccountFields;

/** PUT /accounts/{id}: the fields and the version the edit was made on. */
export const AccountUpdateBody = v.intersect([
  AccountFields,
  v.object({ version: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
]);
export type AccountUpdateInput = v.InferInput<typeof AccountUpdateBody>;

/**
 * PATCH /accounts/{id}: only the fields the user changed, and the version the edit was made on.
 * The fields are checked with AccountFields once they are put on the record as saved, so that a
 * save never writes back what it did not change; a field not listed here is refused.
 */
const named = v.optional(v.unknown());
export const AccountPatchBody = v.strictObject({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  type: named,
  title: named,
  firstName: named,
  lastName: named,
  companyName: named,
  email: named,
  gender: named,
  street: named,
  houseNumber: named,
  zipCode: named,
  city: named,
  birthDate: named,
  phone: named,
  brokerCode: named,
});
export type AccountPatchInput = Partial<AccountInput> & { version: number };
