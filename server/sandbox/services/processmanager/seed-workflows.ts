import type { SeedEnv } from '../service.ts';
import { openRuntime, closeRuntime, createWorkflow, addVersion } from './store.ts';

/**
 * The demo workspace's workflows (issue 17): claim intake (a decision table sends small claims
 * to fast-track approval), lead follow-up (a timer, then a follow-up and a notification), policy
 * termination (a letter to the outbox), each with two versions, and instances in every status.
 * The failed ones failed in an outage of the mail service during the seed: a retry sends them.
 */

const bpmn = (id: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="${id}-defs" targetNamespace="https://demo.test/bpmn">
  <process id="${id}" isExecutable="true">${body}
  </process>
</definitions>`;

const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><conditionExpression xsi:type="tFormalExpression">\${${condition}}</conditionExpression></sequenceFlow>`
    : `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;

export const CLAIM_INTAKE_V1 = bpmn(
  'claim_intake',
  `<startEvent id="start" name="Claim created"/>${flow('f1', 'start', 'assess')}
    <userTask id="assess" name="Assess claim"/>${flow('f2', 'assess', 'end')}
    <endEvent id="end" name="Assessed"/>`,
);

export const CLAIM_INTAKE_V2 = bpmn(
  'claim_intake',
  `<startEvent id="start" name="Claim created"/>${flow('f1', 'start', 'route')}
    <businessRuleTask id="route" name="Route claim" implementation="dmn:claim-routing"/>${flow('f2', 'route', 'gw')}
    <exclusiveGateway id="gw" name="Fast track?" default="f4"/>
    ${flow('f3', 'gw', 'review', 'route = "fast-track"')}${flow('f4', 'gw', 'assess')}
    <serviceTask id="review" name="Put in review" implementation="claim.setStatus?status=in-review"/>${flow('f5', 'review', 'approve')}
    <serviceTask id="approve" name="Approve" implementation="claim.setStatus?status=approved"/>${flow('f6', 'approve', 'end')}
    <userTask id="assess" name="Assess claim"/>${flow('f7', 'assess', 'end')}
    <endEvent id="end" name="Routed"/>`,
);

export const LEAD_FOLLOW_UP_V1 = bpmn(
  'lead_follow_up',
  `<startEvent id="start" name="Lead status changed"/>${flow('f1', 'start', 'followUp')}
    <serviceTask id="followUp" name="Create follow-up" implementation="lead.createFollowUp?note=Call%20the%20applicant&amp;dueInDays=2"/>${flow('f2', 'followUp', 'end')}
    <endEvent id="end"/>`,
);

export const LEAD_FOLLOW_UP_V2 = bpmn(
  'lead_follow_up',
  `<startEvent id="start" name="Lead status changed"/>${flow('f1', 'start', 'wait')}
    <intermediateCatchEvent id="wait" name="One day later"><timerEventDefinition><timeDuration xsi:type="tFormalExpression">P1D</timeDuration></timerEventDefinition></intermediateCatchEvent>${flow('f2', 'wait', 'followUp')}
    <serviceTask id="followUp" name="Create follow-up" implementation="lead.createFollowUp?note=Call%20the%20applicant&amp;dueInDays=1"/>${flow('f3', 'followUp', 'notify')}
    <serviceTask id="notify" name="Notify the agent" implementation="notification.sendEmail?to=care%40demo.test&amp;template=leadFollowUp"/>${flow('f4', 'notify', 'end')}
    <endEvent id="end"/>`,
);

export const POLICY_TERMINATION_V1 = bpmn(
  'policy_termination',
  `<startEvent id="start" name="Policy terminated"/>${flow('f1', 'start', 'end')}
    <endEvent id="end"/>`,
);

export const POLICY_TERMINATION_V2 = bpmn(
  'policy_termination',
  `<startEvent id="start" name="Policy terminated"/>${flow('f1', 'start', 'letter')}
    <serviceTask id="letter" name="Send termination letter" implementation="notification.sendEmail?to=post%40demo.test&amp;template=policyTerminated"/>${flow('f2', 'letter', 'end')}
    <endEvent id="end"/>`,
);

/** Small claims (an estimate up to 1 000 EUR, in cents) go fast-track; none given: a person looks. */
export const CLAIM_ROUTING_DMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="claim-routing-defs" name="Claim routing" namespace="https://demo.test/dmn">
  <decision id="claim_routing" name="Claim routing">
    <decisionTable id="table" hitPolicy="FIRST">
      <input id="in_amount" label="Estimated amount (cents)"><inputExpression id="ie_amount" typeRef="number"><text>amount</text></inputExpression></input>
      <output id="out_route" name="route" typeRef="string"/>
      <rule id="r1"><inputEntry id="r1i"><text>&lt;= 0</text></inputEntry><outputEntry id="r1o"><text>"manual"</text></outputEntry></rule>
      <rule id="r2"><inputEntry id="r2i"><text>&lt;= 100000</text></inputEntry><outputEntry id="r2o"><text>"fast-track"</text></outputEntry></rule>
      <rule id="r3"><inputEntry id="r3i"><text>-</text></inputEntry><outputEntry id="r3o"><text>"manual"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;

export async function seedWorkflows({ db, logger, clock }: SeedEnv): Promise<void> {
  const [tenant] = await db.query<{ id: number }>(
    `SELECT t.id FROM tenants t WHERE t.slug = 'demo'
        AND NOT EXISTS (SELECT 1 FROM workflows w WHERE w.tenant_id = t.id)`,
  );
  if (!tenant) return;
  const tenantId = tenant.id;
  const by = 'system';
  const [intake, followUp, termination] = [
    await createWorkflow(db, {
      tenantId,
      name: 'Claim intake',
      code: 'claim-intake',
      definition: CLAIM_INTAKE_V1,
      by,
    }),
    await createWorkflow(db, {
      tenantId,
      name: 'Lead follow-up',
      code: 'lead-follow-up',
      definition: LEAD_FOLLOW_UP_V1,
      by,
    }),
    await createWorkflow(db, {
      tenantId,
      name: 'Policy termination',
      code: 'policy-termination',
      definition: POLICY_TERMINATION_V1,
      by,
    }),
  ];
  const v2 = async (workflowId: number, xml: string) =>
    (await addVersion(db, tenantId, workflowId, xml, by)).id;
  const intakeV2 = await v2(intake, CLAIM_INTAKE_V2);
  const followUpV2 = await v2(followUp, LEAD_FOLLOW_UP_V2);
  const terminationV2 = await v2(termination, POLICY_TERMINATION_V2);
  await db.query(
    `INSERT INTO decision_tables (tenant_id, code, name, created_by, updated_by)
     VALUES ($1, 'claim-routing', 'Claim routing', $2, $2)`,
    [tenantId, by],
  );
  await db.query(
    `INSERT INTO decision_table_versions (tenant_id, decision_table_id, version_number, definition, created_by, updated_by)
     SELECT $1, id, 1, $2, $3, $3 FROM decision_tables WHERE tenant_id = $1 AND code = 'claim-routing'`,
    [tenantId, CLAIM_ROUTING_DMN, by],
  );
  await db.query(
    `INSERT INTO service_events (tenant_id, event_type, workflow_id, created_by, updated_by)
     VALUES ($1, 'claim.created', $2, $5, $5), ($1, 'lead.status_changed', $3, $5, $5),
            ($1, 'policy.terminated', $4, $5, $5)`,
    [tenantId, intake, followUp, termination, by],
  );

  const codes = async (table: string) =>
    (
      await db.query<{ code: string }>(
        `SELECT code FROM ${table} WHERE tenant_id = $1 ORDER BY id LIMIT 3`,
        [tenantId],
      )
    ).map((r) => r.code);
  const [claims, leads, policies] = [
    await codes('claims'),
    await codes('leads'),
    await codes('policies'),
  ];
  // The numbers the letters name the records by, as the events that start these workflows give.
  const numbers = async (table: string, column: string) =>
    new Map(
      (
        await db.query<{ code: string; n: string }>(
          `SELECT code, ${column} AS n FROM ${table} WHERE tenant_id = $1 ORDER BY id LIMIT 3`,
          [tenantId],
        )
      ).map((r) => [r.code, r.n]),
    );
  const leadNumbers = await numbers('leads', 'lead_number');
  const policyNumbers = await numbers('policies', 'policy_number');

  const runtime = openRuntime(db, clock, logger);
  try {
    const start = (
      versionId: number,
      entityCode: string | undefined,
      variables: Record<string, unknown> = {},
    ) =>
      runtime.start({
        tenantId,
        workflowVersionId: versionId,
        entityCode: entityCode ?? null,
        variables,
        by,
      });
    const [v1Of] = await db.query<{ intake: number; follow: number; term: number }>(
      `SELECT (SELECT id FROM workflow_versions WHERE workflow_id = $1 AND version_number = 1) AS intake,
              (SELECT id FROM workflow_versions WHERE workflow_id = $2 AND version_number = 1) AS follow,
              (SELECT id FROM workflow_versions WHERE workflow_id = $3 AND version_number = 1) AS term`,
      [intake, followUp, termination],
    );
    // Active: claims waiting for a person (no estimate: the table says manual), leads on the timer.
    for (const claim of claims) await start(intakeV2, claim, { amount: 0 });
    for (const lead of leads.slice(0, 2)) {
      await start(followUpV2, lead, { leadNumber: leadNumbers.get(lead) });
    }
    // Completed: the first versions run straight through.
    for (const lead of leads) await start(v1Of!.follow, lead);
    for (const policy of policies.slice(0, 1)) await start(v1Of!.term, policy);
    // Failed: the mail service was down; a retry sends the letters.
    runtime.outages.add('notification.sendEmail');
    for (const policy of policies.slice(1, 3)) {
      await start(terminationV2, policy, { policyNumber: policyNumbers.get(policy) });
    }
    await runtime.settled();
    runtime.outages.clear();
    // Cancelled: a follow-up a clerk stopped.
    const cancelled = await start(followUpV2, leads[2], {
      leadNumber: leadNumbers.get(leads[2]!),
    });
    await runtime.halt(cancelled);
    await db.query(
      "UPDATE workflow_instances SET status = 'cancelled', timer_due_at = NULL WHERE code = $1",
      [cancelled],
    );
    await runtime.settled();
  } finally {
    closeRuntime(db);
  }
  logger.info('sandbox workflows seeded');
}
