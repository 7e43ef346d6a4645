import type { Queryable } from '#server/sandbox/platform/db.ts';

/** What the claim acknowledgement prints of a claim, and whose documents it joins. */
export interface ClaimAcknowledgementFacts {
  /** The claim's numeric id: the claim documents panel lists a claim's documents by it. */
  id: number;
  policyCode: string;
  accountCode: string | null;
  /** The claim as the document kinds' `claim` variables (the claimant is the policy's holder). */
  values: {
    number: string;
    title: string;
    status: string;
    dateOfLoss: string;
    reportedAt: string;
    description: string;
    policyNumber: string;
  };
}

/**
 * The facts of a claim that its acknowledgement prints (the document service's `claim` kind,
 * notification/document-variables.ts); null when the workspace has no such claim. The claim
 * service owns its tables; the document service asks it here instead of reading them.
 */
export async function claimAcknowledgementFacts(
  db: Queryable,
  tenantId: number,
  code: string,
): Promise<ClaimAcknowledgementFacts | null> {
  const [c] = await db.query<{
    id: number;
    claim_number: string;
    title: string;
    status: string;
    damage_date: string;
    notification_date: string;
    description: string | null;
    policy_code: string;
    policy_number: string;
    account_code: string | null;
  }>(
    // Days as text: a DATE turned into a JavaScript Date would shift with the time zone.
    `SELECT id, claim_number, title, status, to_char(damage_date, 'YYYY-MM-DD') AS damage_date,
            to_char(notification_date, 'YYYY-MM-DD') AS notification_date, description,
            policy_code, policy_number, account_code
       FROM claims WHERE tenant_id = $1 AND code = $2`,
    [tenantId, code],
  );
  if (!c) return null;
  return {
    id: c.id,
    policyCode: c.policy_code,
    accountCode: c.account_code,
    values: {
      number: c.claim_number,
      title: c.title,
      status: c.status,
      dateOfLoss: c.damage_date,
      reportedAt: c.notification_date,
      description: c.description ?? '',
      policyNumber: c.policy_number,
    },
  };
}
