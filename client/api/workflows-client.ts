import { fetchJson } from './fetch-json.ts';
import { listParams, type ListQuery, type Page } from './tenant-admin-client.ts';
import type {
  ServiceEventTypes,
  Workflow,
  WorkflowInstance,
  WorkflowInstanceStatus,
  WorkflowInstanceSummary,
  WorkflowVersion,
  WorkflowVersionSummary,
} from '#common/contracts/processmanager.ts';

export type {
  ServiceEventTypes,
  Workflow,
  WorkflowInstance,
  WorkflowInstanceStatus,
  WorkflowInstanceSummary,
  WorkflowStep,
  WorkflowVersion,
  WorkflowVersionSummary,
} from '#common/contracts/processmanager.ts';
export {
  WORKFLOW_EVENT_TYPES,
  WORKFLOW_INSTANCE_STATUSES,
} from '#common/contracts/processmanager.ts';

/**
 * Workflows, their versions and instances, and the service events of the process manager
 * (spec, "Workflows and decision tables (processmanager)") through the BFF proxy. One function per
 * request; each takes an AbortSignal. Refusals are ApiErrors: 400 `invalid_bpmn` (a file that is
 * no BPMN, an unknown service task type) or `validation_error`, 404 with the spec's messages
 * ("Can't load workFlowCode"), 409 `duplicate` (a taken code) or `illegal_transition` (a cancel
 * or retry the instance's status does not allow).
 */

/** Spec: lists default to 30. */
export const WORKFLOWS_PAGE_SIZE = 30;

const base = (accountIndex: number) => `/api/${accountIndex}/processmanager/v1`;

export type WorkflowOrderField = 'id' | 'name' | 'createdAt' | 'updatedAt';

export interface WorkflowsQuery {
  pageToken?: string | null;
  search?: string;
  order?: { field: WorkflowOrderField; direction: 'ASC' | 'DESC' } | null;
}

export const workflowsParams = (query: WorkflowsQuery): string =>
  listParams({
    pageSize: WORKFLOWS_PAGE_SIZE,
    pageToken: query.pageToken ?? null,
    ...(query.search ? { search: query.search } : {}),
    order: query.order ?? null,
  });

export function listWorkflows(
  accountIndex: number,
  query: WorkflowsQuery,
  signal?: AbortSignal,
): Promise<Page<Workflow>> {
  return fetchJson(`${base(accountIndex)}/workflows?${workflowsParams(query)}`, { signal });
}

/** One workflow by id or code, with its versions (oldest first). */
export async function getWorkflow(
  accountIndex: number,
  key: number | string,
  signal?: AbortSignal,
): Promise<Workflow> {
  const answer = await fetchJson<{ workflow: Workflow }>(
    `${base(accountIndex)}/workflows/${encodeURIComponent(String(key))}`,
    { signal },
  );
  return answer.workflow;
}

const bpmnFile = (xml: string, name: string) =>
  new File([xml], `${name || 'workflow'}.bpmn`, { type: 'application/xml' });

/** A new workflow from its first version's BPMN; the code is optional (the service makes one). */
export async function createWorkflow(
  accountIndex: number,
  input: { name: string; code?: string; definition: string },
  signal?: AbortSignal,
): Promise<Workflow> {
  const form = new FormData();
  form.set('name', input.name);
  if (input.code) form.set('code', input.code);
  form.set('file', bpmnFile(input.definition, input.code ?? input.name));
  const answer = await fetchJson<{ workflow: Workflow }>(`${base(accountIndex)}/workflows`, {
    method: 'POST',
    body: form,
    signal,
  });
  return answer.workflow;
}

/**
 * A new name, and with a BPMN a new version (the editor's save). With `baseVersionNumber` (the
 * version the editor loaded) the service answers 409 `version_conflict` with
 * `latestVersionNumber` when another version was saved since.
 */
export async function patchWorkflow(
  accountIndex: number,
  id: number,
  input: { name?: string; definition?: string; baseVersionNumber?: number },
  signal?: AbortSignal,
): Promise<Workflow> {
  let body: FormData | { name: string };
  if (input.definition !== undefined) {
    const form = new FormData();
    if (input.name !== undefined) form.set('name', input.name);
    if (input.baseVersionNumber !== undefined)
      form.set('baseVersionNumber', String(input.baseVersionNumber));
    form.set('file', bpmnFile(input.definition, String(id)));
    body = form;
  } else {
    body = { name: input.name ?? '' };
  }
  const answer = await fetchJson<{ workflow: Workflow }>(`${base(accountIndex)}/workflows/${id}`, {
    method: 'PATCH',
    body,
    signal,
  });
  return answer.workflow;
}

/** The versions of one workflow, by the list call; page by page. */
export function listWorkflowVersions(
  accountIndex: number,
  query: { workflowId?: number; workflowCode?: string; pageToken?: string | null },
  signal?: AbortSignal,
): Promise<Page<WorkflowVersionSummary>> {
  const params = listParams({
    pageSize: 100,
    pageToken: query.pageToken ?? null,
    filter: {
      workflowId: query.workflowId === undefined ? undefined : String(query.workflowId),
      workflowCode: query.workflowCode,
    },
    order: { field: 'versionNumber', direction: 'ASC' },
  });
  return fetchJson(`${base(accountIndex)}/workflow_versions?${params}`, { signal });
}

/**
 * A workflow's version by its number, through the list call; a number the workflow lacks is the
 * service's 404 "Can't load, versionWorkFlowCode".
 */
export async function findWorkflowVersion(
  accountIndex: number,
  workflowCode: string,
  versionNumber: number,
  signal?: AbortSignal,
): Promise<WorkflowVersionSummary> {
  const params = listParams({
    pageSize: 1,
    pageToken: null,
    filter: { workflowCode, versionNumber: String(versionNumber) },
    order: null,
  });
  const page = await fetchJson<Page<WorkflowVersionSummary>>(
    `${base(accountIndex)}/workflow_versions?${params}`,
    { signal },
  );
  const [found] = page.items;
  if (!found) throw new Error(`version ${versionNumber} of ${workflowCode} not listed`);
  return found;
}

/** A version by code (or id) with its BPMN, its tasks and its sequences. */
export async function getWorkflowVersion(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<WorkflowVersion> {
  const answer = await fetchJson<{ workflowVersion: WorkflowVersion }>(
    `${base(accountIndex)}/workflow_versions/${encodeURIComponent(code)}`,
    { signal },
  );
  return answer.workflowVersion;
}

/** The monitor's filters (spec section 7); the dates bound createdAt (>= from, <= to). */
export interface InstancesQuery {
  pageToken?: string | null;
  workflowId?: number | undefined;
  workflowVersionId?: number | undefined;
  entityCode?: string | undefined;
  /** Any of these. */
  statuses?: readonly WorkflowInstanceStatus[];
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  search?: string;
  order?: ListQuery['order'];
}

export const instancesParams = (query: InstancesQuery): string =>
  listParams({
    pageSize: WORKFLOWS_PAGE_SIZE,
    pageToken: query.pageToken ?? null,
    filter: {
      workflowId: query.workflowId === undefined ? undefined : String(query.workflowId),
      workflowVersionId:
        query.workflowVersionId === undefined ? undefined : String(query.workflowVersionId),
      entityCode: query.entityCode,
      status: query.statuses?.length ? query.statuses.join(',') : undefined,
      createdAtFrom: query.createdFrom,
      createdAtTo: query.createdTo,
    },
    ...(query.search ? { search: query.search } : {}),
    order: query.order ?? null,
  });

export function listWorkflowInstances(
  accountIndex: number,
  query: InstancesQuery,
  signal?: AbortSignal,
): Promise<Page<WorkflowInstanceSummary>> {
  return fetchJson(`${base(accountIndex)}/workflow-instances?${instancesParams(query)}`, {
    signal,
  });
}

const instancePath = (accountIndex: number, key: string) =>
  `${base(accountIndex)}/workflow-instances/${encodeURIComponent(key)}`;

/** One instance by code (or id): its variables, its steps and its version's BPMN. */
export async function getWorkflowInstance(
  accountIndex: number,
  key: string,
  signal?: AbortSignal,
): Promise<WorkflowInstance> {
  const answer = await fetchJson<{ workflowInstance: WorkflowInstance }>(
    instancePath(accountIndex, key),
    { signal },
  );
  return answer.workflowInstance;
}

export type InstanceAction = 'cancel' | 'retry';

/** Cancels a running or failed instance, or retries a failed one from the task that failed. */
export async function actOnWorkflowInstance(
  accountIndex: number,
  key: string,
  action: InstanceAction,
  signal?: AbortSignal,
): Promise<WorkflowInstance> {
  const answer = await fetchJson<{ workflowInstance: WorkflowInstance }>(
    `${instancePath(accountIndex, key)}/${action}`,
    { method: 'POST', signal },
  );
  return answer.workflowInstance;
}

/**
 * Completes the user task the instance waits in (sandbox: docs/decisions/012-workflow-user-tasks.md),
 * with variables to add; 409 `illegal_transition` when the instance does not wait there.
 */
export async function completeUserTask(
  accountIndex: number,
  key: string,
  taskKey: string,
  variables: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<WorkflowInstance> {
  const answer = await fetchJson<{ workflowInstance: WorkflowInstance }>(
    `${instancePath(accountIndex, key)}/user-tasks/${encodeURIComponent(taskKey)}/complete`,
    { method: 'POST', body: { variables }, signal },
  );
  return answer.workflowInstance;
}

export function getWorkflowVariable(
  accountIndex: number,
  key: string,
  name: string,
  signal?: AbortSignal,
): Promise<{ name: string; value: unknown }> {
  return fetchJson(`${instancePath(accountIndex, key)}/variables/${encodeURIComponent(name)}`, {
    signal,
  });
}

/** The domain events and the workflows bound to each, and the service task types. */
export function getServiceEventTypes(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<ServiceEventTypes> {
  return fetchJson(`${base(accountIndex)}/service-event/types`, { signal });
}

/** Binds a workflow to a domain event: each such event starts an instance of it. */
export function defineServiceEvent(
  accountIndex: number,
  input: { eventType: string; workflowId: number },
  signal?: AbortSignal,
): Promise<unknown> {
  return fetchJson(`${base(accountIndex)}/service-event/define`, {
    method: 'POST',
    body: input,
    signal,
  });
}
