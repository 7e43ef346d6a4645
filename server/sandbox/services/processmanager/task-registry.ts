import type { Queryable } from '#server/sandbox/platform/db.ts';
import { sendMail } from '#server/sandbox/platform/admin-shared.ts';
import { isNoticeKind, sendNotice } from '#server/sandbox/services/notification/index.ts';
import { setClaimStatusByWorkflow } from '#server/sandbox/services/claim/index.ts';
import { httpCall, checkHttpCall, HTTP_CALL_RAW_PARAMS } from './http-call.ts';

/**
 * The service tasks a workflow may run: a BPMN service task names one in its `implementation`
 * attribute, with parameters as a query string (`claim.setStatus?status=approved`), so that the
 * editor writes plain BPMN 2.0 without a vendor's extension. Parameter values may name variables
 * as `{name}` (`{entityCode}` is always there).
 */

export interface TaskContext {
  db: Queryable;
  tenantId: number;
  instanceCode: string;
  entityCode: string | null;
  /** The instance's variables; a task adds its results to them. */
  variables: Record<string, unknown>;
  now: Date;
  /** Who the work is stamped with. */
  by: string;
}

type Task = (params: Record<string, string>, ctx: TaskContext) => Promise<void>;

/**
 * What a deployment checks of a task's parameters before a version is saved (a 400 names the
 * problem), and which parameters the task fills with variables itself (an http.call's path and
 * body, which must be encoded for where they go, not pasted in as text).
 */
const CHECKS: Record<string, (params: Record<string, string>) => string | null> = {
  'http.call': checkHttpCall,
};
const RAW_PARAMS: Record<string, readonly string[]> = {
  'http.call': HTTP_CALL_RAW_PARAMS,
};

const need = (params: Record<string, string>, name: string): string => {
  const value = params[name];
  if (!value) throw new Error(`the task needs the parameter ${name}`);
  return value;
};

const TASKS: Record<string, Task> = {
  /** Moves the claim (the instance's entity unless `claimCode` says otherwise) to `status`. */
  'claim.setStatus': async (params, ctx) => {
    const code = params.claimCode ?? ctx.entityCode;
    if (!code) throw new Error('no claim to set the status of');
    await setClaimStatusByWorkflow(ctx.db, ctx.tenantId, code, need(params, 'status'), ctx.by);
    ctx.variables.claimStatus = params.status;
  },
  /**
   * An e-mail to the outbox (the sandbox sends nothing out): a notice of the sandbox's own
   * (`template=policyTerminated`), in the reader's language and naming the record by its number,
   * or the subject and text the workflow's author wrote.
   */
  'notification.sendEmail': async (params, ctx) => {
    const template = params.template;
    if (template !== undefined) {
      if (!isNoticeKind(template)) throw new Error(`unknown e-mail template ${template}`);
      const values = Object.fromEntries(
        Object.entries(ctx.variables).flatMap(([k, v]) =>
          typeof v === 'string' || typeof v === 'number' ? [[k, String(v)]] : [],
        ),
      );
      await sendNotice(ctx.db, {
        tenantId: ctx.tenantId,
        to: need(params, 'to'),
        kind: template,
        values,
      });
      ctx.variables.mailSent = true;
      return;
    }
    await sendMail(ctx.db, {
      tenantId: ctx.tenantId,
      to: need(params, 'to'),
      subject: need(params, 'subject'),
      text: params.text ?? params.subject ?? '',
      link: null,
    });
    ctx.variables.mailSent = true;
  },
  /** A follow-up on the lead (the instance's entity unless `leadCode` says otherwise). */
  'lead.createFollowUp': async (params, ctx) => {
    const code = params.leadCode ?? ctx.entityCode;
    if (!code) throw new Error('no lead to follow up');
    const days = Number(params.dueInDays ?? '0');
    await ctx.db.query(
      `INSERT INTO lead_follow_ups (tenant_id, lead_code, note, due_at, instance_code, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        ctx.tenantId,
        code,
        params.note ?? 'Follow up',
        new Date(ctx.now.getTime() + days * 86_400_000),
        ctx.instanceCode,
        ctx.by,
      ],
    );
  },
  /**
   * A call to another service of the sandbox as the workspace's system user, its answer kept in
   * a variable; an answer that is not 2xx fails the task (http-call.ts).
   */
  'http.call': (params, ctx) => httpCall(params, ctx),
};

export const TASK_TYPES: readonly string[] = Object.keys(TASKS);

export const isTaskType = (type: string) => Object.hasOwn(TASKS, type);

/** `type?a=1&b=2` -> the type and its parameters. */
export function parseTaskSpec(implementation: string): {
  type: string;
  params: Record<string, string>;
} {
  const at = implementation.indexOf('?');
  const type = (at < 0 ? implementation : implementation.slice(0, at)).trim();
  const params = Object.fromEntries(
    new URLSearchParams(at < 0 ? '' : implementation.slice(at + 1)),
  );
  return { type, params };
}

/** What is wrong with a task's parameters, checked when a version is saved; null: nothing. */
export function taskParamsProblem(type: string, params: Record<string, string>): string | null {
  return CHECKS[type]?.(params) ?? null;
}

/** `{name}` in a parameter -> the variable's value (except where the task fills them itself). */
function filled(
  params: Record<string, string>,
  ctx: TaskContext,
  raw: readonly string[],
): Record<string, string> {
  const vars: Record<string, unknown> = { ...ctx.variables, entityCode: ctx.entityCode };
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      raw.includes(k) ? v : v.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? '')),
    ]),
  );
}

/** Runs the task an implementation names; throws what the task throws. */
export async function runTask(implementation: string, ctx: TaskContext): Promise<void> {
  const { type, params } = parseTaskSpec(implementation);
  const task = TASKS[type];
  if (!task) throw new Error(`unknown task type ${type}`);
  await task(filled(params, ctx, RAW_PARAMS[type] ?? []), ctx);
}
