import { isEmailAddress } from '#common/email-address.ts';
import type { Lead, LeadChanges, PolicyInput } from '#client/api/leads-client.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import type { PolicyObjectInput } from '#common/policy-object-data.ts';

/**
 * What a lead's application has beyond the generated product form (client/entities/application/): who
 * applies, an existing customer or a prospect without a customer account, and the lead bodies
 * that carry it. Kept apart from React so that it is tested on its own.
 */

export type Applicant = { kind: 'customer' | 'prospect'; accountCode: string };
export type HolderValues = { firstName: string; lastName: string; email: string };

export const EMPTY_HOLDER: HolderValues = { firstName: '', lastName: '', email: '' };

/** The applicant's errors by control name (`accountCode`, `lastName`, `email`), in form order. */
export function applicantCheck(applicant: Applicant, holder: HolderValues): FieldErrors {
  if (applicant.kind === 'customer') {
    return applicant.accountCode
      ? {}
      : { accountCode: ['leads:application.errors.customer_required'] };
  }
  const errors: FieldErrors = {};
  if (!holder.lastName.trim()) errors.lastName = ['leads:application.errors.last_name_required'];
  if (holder.email.trim() && !isEmailAddress(holder.email.trim())) {
    errors.email = ['leads:application.errors.invalid_email'];
  }
  return errors;
}

/** A new lead: the customer's code, or the prospect's name as the policy's holder. */
export function createBody(
  productVersionId: number,
  policyObjects: PolicyObjectInput[],
  applicant: Applicant,
  holder: HolderValues,
): LeadChanges & { policy: PolicyInput } {
  if (applicant.kind === 'customer') {
    return { accountCode: applicant.accountCode, policy: { productVersionId, policyObjects } };
  }
  const email = holder.email.trim();
  return {
    policy: {
      productVersionId,
      holder: {
        type: 'person',
        firstName: holder.firstName.trim(),
        lastName: holder.lastName.trim(),
        ...(email ? { email } : {}),
      },
      policyObjects,
    },
  };
}

/** An edited application on top of the lead's version: the applicant stays who it was. */
export function updateBody(
  base: Lead,
  version: number,
  productVersionId: number,
  policyObjects: PolicyObjectInput[],
): LeadChanges & { version: number } {
  return {
    version,
    policy: {
      productVersionId,
      accountCode: base.accountCode,
      holder: base.policy.holder,
      policyObjects,
    },
  };
}
