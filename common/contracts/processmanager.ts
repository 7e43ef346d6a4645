import * as v from 'valibot';
import { AuditEntries, Id, Int, JsonRecord, Timestamp, pageOf } from './shared.ts';

/**
 * processmanager: workflows and their versions (BPMN), the instances the engine runs, the
 * service events that start them, and decision tables (DMN) with their versions
 * (server/sandbox/services/processmanager).
 */

/** The instance statuses of the engine; the spec's process status is beside each. */
export const WORKFLOW_INSTANCE_STATUSES = ['active', 'failed', 'completed', 'cancelled'] as const;
export type WorkflowInstanceStatus = (typeof WORKFLOW_INSTANCE_STATUSES)[number];

/** The domain events a service event can bind to a workflow. */
export const WORKFLOW_EVENT_TYPES = [
  'claim.created',
  'lead.status_changed',
  'policy.terminated',
] as const;

export const WorkflowVersionSummarySchema = v.strictObject({
  id: Id,
  code: v.string(),
  workflowId: Id,
  versionNumber: Int,
  ...AuditEntries,
});
export type WorkflowVersionSummary = v.InferOutput<typeof WorkflowVersionSummarySchema>;

/** A version fetched by code: its BPMN and what the service derives from it. */
export const WorkflowVersionSchema = v.strictObject({
  ...WorkflowVersionSummarySchema.entries,
  definition: v.string(),
  tasks: v.array(
    v.strictObject({ key: v.string(), name: v.nullable(v.string()), type: v.string() }),
  ),
  sequences: v.array(v.strictObject({ key: v.string(), source: v.string(), target: v.string() })),
});
export type WorkflowVersion = v.InferOutput<typeof WorkflowVersionSchema>;

export const WorkflowSchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  ...AuditEntries,
  /** With the single workflow's answers (GET, POST, PATCH), not in the list. */
  versions: v.optional(v.array(WorkflowVersionSummarySchema)),
});
export type Workflow = v.InferOutput<typeof WorkflowSchema>;
export const WorkflowPageSchema = pageOf(WorkflowSchema);
export const WorkflowAnswerSchema = v.strictObject({ workflow: WorkflowSchema });

/** One step the engine took: an element entered (`start`) or left (`end`), or one that failed. */
export const WorkflowStepSchema = v.strictObject({
  key: v.string(),
  type: v.string(),
  event: v.string(),
  at: Timestamp,
});
export type WorkflowStep = v.InferOutput<typeof WorkflowStepSchema>;

const instanceEntries = {
  id: Id,
  code: v.string(),
  workflow: v.strictObject({ id: Id, code: v.string(), name: v.string() }),
  workflowVersion: v.strictObject({ id: Id, versionNumber: Int }),
  entityCode: v.nullable(v.string()),
  status: v.picklist(WORKFLOW_INSTANCE_STATUSES),
  processStatus: v.string(),
  /** What the failed task threw: its element and message. */
  error: v.nullable(v.unknown()),
  timerDueAt: v.nullable(Timestamp),
  ...AuditEntries,
};
export const WorkflowInstanceSummarySchema = v.strictObject(instanceEntries);
export type WorkflowInstanceSummary = v.InferOutput<typeof WorkflowInstanceSummarySchema>;
export const WorkflowInstancePageSchema = pageOf(WorkflowInstanceSummarySchema);

/** One instance with its variables, its steps and (GET) its version's BPMN. */
export const WorkflowInstanceSchema = v.strictObject({
  ...instanceEntries,
  variables: JsonRecord,
  history: v.array(WorkflowStepSchema),
  definition: v.optional(v.string()),
});
export type WorkflowInstance = v.InferOutput<typeof WorkflowInstanceSchema>;
export const WorkflowInstanceAnswerSchema = v.strictObject({
  workflowInstance: WorkflowInstanceSchema,
});

export const ServiceEventTypesSchema = v.strictObject({
  items: v.array(
    v.strictObject({
      type: v.string(),
      workflows: v.array(v.strictObject({ id: Id, code: v.string(), name: v.string() })),
    }),
  ),
  /** The service task types the editor offers (the sandbox's task registry). */
  taskTypes: v.array(v.string()),
});
export type ServiceEventTypes = v.InferOutput<typeof ServiceEventTypesSchema>;

/** A decision table's first table as the service reads it from the DMN. */
export const DecisionLogicSchema = v.strictObject({
  decisionId: v.string(),
  name: v.nullable(v.string()),
  hitPolicy: v.string(),
  inputs: v.array(v.strictObject({ label: v.nullable(v.string()), expression: v.string() })),
  outputs: v.array(v.strictObject({ name: v.string() })),
  rules: v.array(
    v.strictObject({ inputEntries: v.array(v.string()), outputEntries: v.array(v.string()) }),
  ),
});
export type DecisionLogic = v.InferOutput<typeof DecisionLogicSchema>;

export const DecisionTableVersionSummarySchema = v.strictObject({
  id: Id,
  versionNumber: Int,
  ...AuditEntries,
});
export const DecisionTableVersionSchema = v.strictObject({
  ...DecisionTableVersionSummarySchema.entries,
  definition: v.string(),
  table: DecisionLogicSchema,
});
export type DecisionTableVersion = v.InferOutput<typeof DecisionTableVersionSchema>;
export const DecisionTableVersionPageSchema = pageOf(DecisionTableVersionSummarySchema);
export type DecisionTableVersionSummary = v.InferOutput<typeof DecisionTableVersionSummarySchema>;

export const DecisionTableSummarySchema = v.strictObject({
  id: Id,
  code: v.string(),
  name: v.string(),
  ...AuditEntries,
});
export type DecisionTableSummary = v.InferOutput<typeof DecisionTableSummarySchema>;
export const DecisionTablePageSchema = pageOf(DecisionTableSummarySchema);

/** A table with its latest version (GET, POST, PUT, PATCH by code). */
export const DecisionTableAnswerSchema = v.strictObject({
  decisionTable: v.strictObject({
    ...DecisionTableSummarySchema.entries,
    version: DecisionTableVersionSchema,
  }),
});
export type DecisionTable = v.InferOutput<typeof DecisionTableAnswerSchema>['decisionTable'];

/** The "try it" panel's answer: the matching rule's outputs, or null when none matches. */
export const DecisionResultSchema = v.strictObject({ result: v.nullable(JsonRecord) });
