import type { Queryable } from '#server/sandbox/platform/db.ts';
import { CLAIM_DOCUMENT_ENTITY_TYPE } from '#common/claim-documents.ts';
import { policyScheduleFacts } from '#server/sandbox/services/insurance/index.ts';
import { claimAcknowledgementFacts } from '#server/sandbox/services/claim/index.ts';
import { invoiceDocumentFacts } from '#server/sandbox/services/billing/index.ts';
import { policyPaymentMethod } from '#server/sandbox/services/payment/index.ts';
import { CLAIM_ACKNOWLEDGEMENT, INVOICE_DOCUMENT, POLICY_SCHEDULE } from './doc-template-store.ts';
import type { IssueEvent, Issuer } from './issued-documents.ts';

/**
 * The documents the sandbox issues itself (issue 19), one line each: on which domain event,
 * from which system template, of which record; each record's facts read through its service's
 * index. docs/contracts.md, "Document templates (issue 19)".
 */

const NO_HOLDER = { name: '', email: '', street: '', zipCode: '', city: '' };

/** The policy's number, product and holder as a claim's or an invoice's `policy` variables. */
async function policyOf(tx: Queryable, tenantId: number, code: string | null) {
  const facts = code ? await policyScheduleFacts(tx, tenantId, code) : null;
  const v = facts?.values;
  return {
    number: String(v?.number ?? ''),
    productName: String(v?.productName ?? ''),
    holder: (v?.holder as typeof NO_HOLDER | undefined) ?? NO_HOLDER,
  };
}

/** The event's record's facts, read by its service, and its policy's; null when it is gone. */
async function withPolicy<F extends { policyCode: string | null }>(
  tx: Queryable,
  event: IssueEvent,
  read: (tx: Queryable, tenantId: number, code: string) => Promise<F | null>,
) {
  const facts = await read(tx, event.tenantId, event.entityCode);
  return facts && { facts, policy: await policyOf(tx, event.tenantId, facts.policyCode) };
}

/** The one document of a record: named by the template's name (its title) and the number. */
const namedBy = (number: string) => ({
  description: (title: string) => `${title} ${number}`,
  filename: (title: string) => `${title}-${number}.pdf`,
});

/** The policy schedule: at a policy's creation and on each new version in force. */
const policySchedule: Issuer = {
  on: ['policy.created', 'policy.version_created'],
  template: POLICY_SCHEDULE,
  onePer: 'description',
  async read(tx, event) {
    const facts = await policyScheduleFacts(tx, event.tenantId, event.entityCode);
    if (!facts) return null;
    const policy = facts.values;
    const number = String(policy.number);
    return {
      entityType: 'policy',
      entityId: event.entityCode,
      policyCode: event.entityCode,
      accountCode: facts.accountCode,
      values: { policy },
      description: (title) => `${title} ${number}, Version ${policy.version}`,
      filename: (title) => `${title}-${number}-v${policy.version}.pdf`,
    };
  },
};

/**
 * The claim acknowledgement: when a claim is reported, a document of the claim as the claim
 * documents panel lists them (its entity type, the claim's numeric id), the policy's holder as
 * the claimant.
 */
const claimAcknowledgement: Issuer = {
  on: ['claim.created'],
  template: CLAIM_ACKNOWLEDGEMENT,
  onePer: 'record',
  async read(tx, event) {
    const found = await withPolicy(tx, event, claimAcknowledgementFacts);
    if (!found) return null;
    const { facts, policy } = found;
    const { policyNumber, ...claim } = facts.values;
    const { email: _email, ...claimant } = policy.holder;
    return {
      entityType: CLAIM_DOCUMENT_ENTITY_TYPE,
      entityId: String(facts.id),
      policyCode: facts.policyCode,
      accountCode: facts.accountCode,
      values: {
        claim: { ...claim, claimant },
        policy: { number: policy.number || policyNumber, productName: policy.productName },
      },
      ...namedBy(claim.number),
    };
  },
};

/**
 * The invoice: when a user creates one (`invoice.created`, which the billing run and the seeds
 * do not send: their invoices come by the thousand), a document of the invoice (`entityType
 * 'invoice'`, its code), with the policy's holder and how the policy pays.
 */
const invoiceDocument: Issuer = {
  on: ['invoice.created'],
  template: INVOICE_DOCUMENT,
  onePer: 'record',
  async read(tx, event) {
    const found = await withPolicy(tx, event, invoiceDocumentFacts);
    if (!found) return null;
    const { facts, policy } = found;
    const method = facts.policyCode
      ? await policyPaymentMethod(tx, event.tenantId, facts.policyCode)
      : null;
    return {
      entityType: 'invoice',
      entityId: event.entityCode,
      policyCode: facts.policyCode,
      accountCode: facts.accountCode,
      values: {
        invoice: {
          ...facts.values,
          paymentMethod: method?.type ?? '',
          mandateReference: method?.mandateReference ?? '',
        },
        policy,
      },
      ...namedBy(facts.values.number),
    };
  },
};

export const ISSUERS: readonly Issuer[] = [policySchedule, claimAcknowledgement, invoiceDocument];
