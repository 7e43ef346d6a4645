import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { Timers } from 'bpmn-elements';
import { BpmnModdle } from 'bpmn-moddle';
import { evaluate } from 'feelin';
import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { parseCache } from '#server/sandbox/platform/parse-cache.ts';
import { runTask } from './task-registry.ts';
import { evaluateTable, parseDmn } from './dmn.ts';

/**
 * The workflow engine of the sandbox: bpmn-engine runs each instance's version; after every step
 * that ended well the engine's state is saved with the instance, so that a restart resumes it
 * and a retry re-runs the task that failed. Timers run on the sandbox's clock: bpmn-engine's
 * timers are handed a setTimeout that waits for the clock, checked on a short real tick
 * (docs/decisions/011-workflow-engine.md).
 */

export const WORKFLOW_ACTOR = 'workflow';
const TICK_MS = 100;

// A version's diagram and a table's version are parsed once, not for every instance started,
// resumed or routed (bpmn-engine takes the parsed diagram as `moddleContext`; it trims the XML
// before parsing too).
const diagramOf = parseCache((xml) => new BpmnModdle().fromXML(xml.trim()));
const decisionTableOf = parseCache(parseDmn);

interface InstanceRow {
  id: number;
  tenant_id: number;
  code: string;
  entity_code: string | null;
  status: string;
  engine_state: unknown;
  variables: Record<string, unknown>;
  definition: string;
  /** When the instance's timer is due on the sandbox's clock, as saved with its last state. */
  timer_due_at?: Date | string | null;
}

/** What bpmn-elements registers a timer for: the timer's content as it worked it out. */
interface TimerOwner {
  timerType?: string;
  expireAt?: Date | string;
  isResumed?: boolean;
}

interface Live {
  engine: Engine;
  tenantId: number;
  code: string;
  /** The instance's writes, one after the other, so that the last state saved is the last one. */
  chain: Promise<void>;
  cancelled: boolean;
  history: { key: string; type: string; event: string; at: string }[];
}

interface ClockTimer {
  dueAt: number;
  instance: string;
  fire: () => void;
}

/** `${expression}` in a condition or timer: FEEL over the variables; anything else as it is. */
const expressions = {
  resolveExpression(expression: unknown, message?: { environment?: { variables?: object } }) {
    const match = typeof expression === 'string' && /^\$\{([\s\S]*)\}$/.exec(expression.trim());
    if (!match) return expression;
    return evaluate(match[1]!, { ...(message?.environment?.variables ?? {}) }).value;
  },
};

export class WorkflowRuntime {
  private readonly live = new Map<string, Live>();
  private readonly timers = new Map<number, ClockTimer>();
  private nextTimer = 1;
  private readonly tick: NodeJS.Timeout;
  /** Task types that fail for now (the seed's outage, so that a retry later fixes them). */
  readonly outages = new Set<string>();
  /**
   * Per instance, the last of its tasks and cancels queued one after the other: a task checks
   * the instance is still active and does its work, or a cancel moves it, never the two
   * interleaved. So a cancel that answered has no task of the instance run after it, even when a
   * retry's engine started before or beside it (the sandbox is one process, the queue in it).
   */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.tick = setInterval(() => this.fireDue(), TICK_MS);
    this.tick.unref();
  }

  stop(): void {
    clearInterval(this.tick);
    for (const live of this.live.values()) live.engine.stop();
    this.live.clear();
    this.timers.clear();
  }

  /** Resolves when every instance's writes so far are done (tests, the seed). */
  async settled(): Promise<void> {
    for (let i = 0; i < 50; i++) {
      const chains = [...this.live.values()].map((l) => l.chain);
      await Promise.all(chains);
      await new Promise((resolve) => setImmediate(resolve));
      if ([...this.live.values()].every((l) => chains.includes(l.chain))) return;
    }
  }

  /** Timers whose time has come on the clock fire, earliest first. */
  fireDue(): void {
    const now = this.clock.now();
    const due = [...this.timers.entries()]
      .filter(([, t]) => t.dueAt <= now)
      .sort((a, b) => a[1].dueAt - b[1].dueAt);
    for (const [id, timer] of due) {
      this.timers.delete(id);
      timer.fire();
    }
  }

  /** Starts an instance of a version; answers its code once the engine has begun. */
  async start(input: {
    tenantId: number;
    workflowVersionId: number;
    entityCode: string | null;
    variables: Record<string, unknown>;
    by: string;
    createdAt?: Date;
  }): Promise<string> {
    const code = newCode('wfi');
    const at = input.createdAt ?? new Date(this.clock.now());
    const [row] = await this.db.query<{ id: number; definition: string; workflow_id: number }>(
      `INSERT INTO workflow_instances (tenant_id, code, workflow_id, workflow_version_id, entity_code,
              status, variables, created_at, updated_at, created_by, updated_by)
       SELECT $1, $2, v.workflow_id, v.id, $4, 'active', $5, $6, $6, $7, $7
         FROM workflow_versions v WHERE v.id = $3 AND v.tenant_id = $1
       RETURNING id, (SELECT definition FROM workflow_versions WHERE id = $3) AS definition`,
      [
        input.tenantId,
        code,
        input.workflowVersionId,
        input.entityCode,
        JSON.stringify(input.variables),
        at,
        input.by,
      ],
    );
    if (!row) throw new Error(`workflow version ${input.workflowVersionId} not found`);
    await this.run(
      {
        id: row.id,
        tenant_id: input.tenantId,
        code,
        entity_code: input.entityCode,
        status: 'active',
        engine_state: null,
        variables: input.variables,
        definition: row.definition,
      },
      [],
    );
    return code;
  }

  /** Every active instance continues where its saved state left it (sandbox start). */
  async resumeAll(): Promise<number> {
    const rows = await this.db.query<InstanceRow & { history: Live['history'] }>(
      `SELECT i.id, i.tenant_id, i.code, i.entity_code, i.status, i.engine_state, i.variables,
              i.history, i.timer_due_at, v.definition
         FROM workflow_instances i JOIN workflow_versions v ON v.id = i.workflow_version_id
        WHERE i.status = 'active' ORDER BY i.id`,
    );
    for (const row of rows) await this.run(row, row.history);
    return rows.length;
  }

  /** `fn` in the instance's turn: after the task or cancel before it, before the next one. */
  private async inTurn<T>(code: string, fn: () => Promise<T>): Promise<T> {
    const before = this.turns.get(code) ?? Promise.resolve();
    let done!: () => void;
    const mine = before.then(() => new Promise<void>((resolve) => (done = resolve)));
    this.turns.set(code, mine);
    await before;
    try {
      return await fn();
    } finally {
      done();
      if (this.turns.get(code) === mine) this.turns.delete(code);
    }
  }

  /**
   * Cancels an active or failed instance: in its turn, so no task of it runs after this answers
   * (a task under way finishes first; the next one finds the instance cancelled). `move` is the
   * caller's status-guarded update; the engine stops only when it moved the instance.
   */
  async cancel<T>(code: string, move: () => Promise<T | undefined>): Promise<T | undefined> {
    return this.inTurn(code, async () => {
      const moved = await move();
      if (moved !== undefined) await this.halt(code);
      return moved;
    });
  }

  /** Stops a running instance's engine (cancel); answers whether one ran. */
  async halt(code: string): Promise<void> {
    const live = this.live.get(code);
    if (!live) return;
    live.cancelled = true;
    this.clearTimers(code);
    live.engine.stop();
    this.live.delete(code);
    await live.chain;
  }

  /**
   * Completes a user task the running instance waits in (docs/decisions/012-workflow-user-tasks.md):
   * the variables given join the instance's, then the engine is signalled and runs on, saving as
   * it goes. False when the instance does not wait there (not running, or waiting elsewhere).
   */
  completeUserTask(code: string, taskKey: string, variables: Record<string, unknown>): boolean {
    const live = this.live.get(code);
    const execution = live?.engine.execution;
    if (!live || live.cancelled || !execution) return false;
    const waiting = execution
      .getPostponed()
      .find((api) => api.id === taskKey && api.type === 'bpmn:UserTask') as
      { environment?: { variables?: Record<string, unknown> } } | undefined;
    if (!waiting) return false;
    // The task's environment is the one the next gateway reads; the engine's is the one saved.
    if (waiting.environment?.variables) Object.assign(waiting.environment.variables, variables);
    Object.assign(live.engine.environment.variables, variables);
    execution.signal({ id: taskKey });
    return true;
  }

  /** A failed instance runs again from its last good state: the failed task first. */
  async retry(row: InstanceRow & { history: Live['history'] }): Promise<void> {
    await this.run({ ...row, status: 'active' }, row.history);
  }

  private clearTimers(instance: string): void {
    for (const [id, t] of this.timers) if (t.instance === instance) this.timers.delete(id);
  }

  /**
   * bpmn-elements' timers, run on the sandbox's clock. bpmn-elements works a timer's delay out on
   * the system clock, which is right for a fresh duration (P1D from now) but not for the rest:
   * a timer resumed after a restart is due when its saved state says, on the sandbox's clock
   * (`resumedDueAt`, the instance's timer_due_at), not "what is left" by the system clock; a
   * date timer (timeDate) is due at its date on the sandbox's clock. Which kind of timer is set
   * comes from the owner bpmn-elements registers it for.
   */
  private engineTimers(instance: string, resumedDueAt: number | null) {
    let owner: TimerOwner | null = null;
    let resumeDue = resumedDueAt;
    const dueAt = (delay: number): number => {
      if (owner?.timerType === 'timeDate' && owner.expireAt !== undefined)
        return new Date(owner.expireAt).getTime();
      if (owner?.isResumed && resumeDue !== null) {
        const due = resumeDue;
        resumeDue = null;
        return due;
      }
      return this.clock.now() + delay;
    };
    // bpmn-elements asks for setTimeout's shape; ids stand for the handles.
    const timers = new Timers({
      setTimeout: (fire: () => void, delay: number) => {
        const id = this.nextTimer++;
        this.timers.set(id, { dueAt: dueAt(delay), instance, fire });
        return id;
      },
      clearTimeout: (id: number) => {
        this.timers.delete(id);
      },
    } as never);
    // Each timer is set through the handle registered for its owner: note the owner meanwhile.
    const register = timers.register.bind(timers);
    timers.register = ((registeredFor: TimerOwner) => {
      const registered = register(registeredFor as never);
      const set = registered.setTimeout;
      return {
        owner: registeredFor,
        clearTimeout: registered.clearTimeout,
        setTimeout: (...args: Parameters<typeof set>) => {
          owner = registeredFor;
          try {
            return set(...args);
          } finally {
            owner = null;
          }
        },
      } as unknown as typeof registered;
    }) as typeof timers.register;
    return timers;
  }

  private nextDue(instance: string): Date | null {
    const dues = [...this.timers.values()].filter((t) => t.instance === instance);
    return dues.length ? new Date(Math.min(...dues.map((t) => t.dueAt))) : null;
  }

  private async run(row: InstanceRow, history: Live['history']): Promise<void> {
    // The task's own environment: the one the next gateway's condition reads.
    const work = (
      activity: Parameters<WorkflowRuntime['work']>[1] & { environment?: { variables: object } },
    ) => {
      const variables = (activity.environment ?? engine.environment).variables as Record<
        string,
        unknown
      >;
      // Copied to the engine's too: those are the ones saved with the instance.
      return this.inTurn(row.code, async () => {
        // Checked at the database in the task's turn: a cancel since the engine (re)started,
        // a retry's among them, stops the instance before the task does anything.
        const [now] = await this.db.query<{ status: string }>(
          'SELECT status FROM workflow_instances WHERE id = $1',
          [row.id],
        );
        if (now?.status !== 'active') {
          live.cancelled = true;
          this.clearTimers(row.code);
          if (this.live.get(row.code) === live) this.live.delete(row.code);
          throw new Error(`the instance is ${now?.status ?? 'gone'}: its tasks no longer run`);
        }
        await this.work(row, activity, variables);
        Object.assign(engine.environment.variables, variables);
      });
    };
    const listener = new EventEmitter();
    const options = {
      name: row.code,
      timers: this.engineTimers(
        row.code,
        row.engine_state && row.timer_due_at ? new Date(row.timer_due_at).getTime() : null,
      ),
      expressions,
      extensions: {
        // Service and business rule tasks do the registry's work (bpmn-elements reads the
        // Service of a task's behaviour when the task runs).
        tasks(activity: { type: string; behaviour: Record<string, unknown> }) {
          if (activity.type !== 'bpmn:ServiceTask' && activity.type !== 'bpmn:BusinessRuleTask')
            return;
          activity.behaviour.Service = function Service(this: {
            execute: (m: unknown, cb: (err: Error | null, out?: unknown) => void) => void;
          }) {
            this.execute = (_message, callback) => {
              work(activity).then(
                () => callback(null, {}),
                (err: Error) => callback(err),
              );
            };
          };
        },
      },
    };
    const engine = row.engine_state
      ? new Engine(options as never).recover(structuredClone(row.engine_state))
      : new Engine({
          ...options,
          moddleContext: await diagramOf(row.definition),
          variables: row.variables,
        } as never);
    const live: Live = {
      engine,
      tenantId: row.tenant_id,
      code: row.code,
      chain: Promise.resolve(),
      cancelled: false,
      history: [...history],
    };
    this.live.set(row.code, live);

    const write = (what: () => Promise<unknown>) => {
      live.chain = live.chain.then(what).then(
        () => {},
        (err: unknown) => this.logger.error({ err, instance: row.code }, 'workflow write failed'),
      );
    };
    // Taken on the next turn: in the middle of an event (a timer being armed, a flow being
    // taken) the engine's queues are half-written and a state taken there does not resume.
    const save = () => setImmediate(saveNow);
    const saveNow = () => {
      if (live.cancelled || !engine.execution || this.live.get(row.code) !== live) return;
      const state = engine.execution.getState();
      const variables = engine.environment.variables;
      const steps = [...live.history];
      const due = this.nextDue(row.code);
      write(() =>
        this.db.query(
          `UPDATE workflow_instances SET engine_state = $2, variables = $3, history = $4,
                  timer_due_at = $5, updated_at = $6
            WHERE id = $1 AND status = 'active'`,
          [
            row.id,
            JSON.stringify(state),
            JSON.stringify(variables),
            JSON.stringify(steps),
            due,
            new Date(this.clock.now()),
          ],
        ),
      );
    };
    const step = (event: string) => (api: { id: string; type: string }) => {
      live.history.push({
        key: api.id,
        type: api.type.replace(/^bpmn:/, ''),
        event,
        at: new Date(this.clock.now()).toISOString(),
      });
      if (event === 'end' || event === 'wait' || event === 'timer') save();
    };
    listener.on('activity.start', step('start'));
    listener.on('activity.end', step('end'));
    listener.on('activity.wait', step('wait'));
    listener.on('activity.timer', step('timer'));
    listener.on('flow.take', step('take'));

    const finish = (status: 'completed' | 'failed', error: unknown) => {
      if (live.cancelled) return;
      this.live.delete(row.code);
      this.clearTimers(row.code);
      const variables = engine.environment.variables;
      const steps = [...live.history];
      write(() =>
        this.db.query(
          `UPDATE workflow_instances SET status = $2, error = $3, variables = $4, history = $5,
                  timer_due_at = NULL, updated_at = $6, updated_by = $7
            WHERE id = $1 AND status = 'active'`,
          [
            row.id,
            status,
            error ? JSON.stringify(error) : null,
            JSON.stringify(variables),
            JSON.stringify(steps),
            new Date(this.clock.now()),
            WORKFLOW_ACTOR,
          ],
        ),
      );
    };
    engine.once('end', () => finish('completed', null));
    engine.once('error', (err: Error & { source?: { content?: { id?: string } } }) => {
      const failedStep = [...live.history].reverse().find((s) => s.event === 'start');
      finish('failed', {
        message: err.message,
        taskKey: failedStep?.key ?? null,
        at: new Date(this.clock.now()).toISOString(),
      });
    });
    try {
      if (row.engine_state) await engine.resume({ listener });
      else await engine.execute({ listener, variables: row.variables });
    } catch (err) {
      // The 'error' event has marked the instance failed already.
      this.logger.debug({ err, instance: row.code }, 'workflow instance failed');
    }
  }

  /** A service or business rule task's work. */
  private async work(
    row: InstanceRow,
    activity: { type: string; id?: string; behaviour: Record<string, unknown> },
    variables: Record<string, unknown>,
  ): Promise<void> {
    const implementation = String(activity.behaviour.implementation ?? '');
    if (activity.type === 'bpmn:BusinessRuleTask') {
      const tableCode = implementation.replace(/^dmn:/, '');
      const [version] = await this.db.query<{ definition: string }>(
        `SELECT dv.definition FROM decision_table_versions dv
           JOIN decision_tables d ON d.id = dv.decision_table_id
          WHERE d.tenant_id = $1 AND d.code = $2 ORDER BY dv.version_number DESC LIMIT 1`,
        [row.tenant_id, tableCode],
      );
      if (!version) throw new Error(`decision table ${tableCode} does not exist`);
      const result = evaluateTable(await decisionTableOf(version.definition), variables);
      if (!result) throw new Error(`no rule of decision table ${tableCode} matches`);
      Object.assign(variables, result);
      return;
    }
    const type = implementation.split('?')[0]!;
    if (this.outages.has(type)) throw new Error(`${type}: the service is not reachable`);
    await runTask(implementation, {
      db: this.db,
      tenantId: row.tenant_id,
      instanceCode: row.code,
      entityCode: row.entity_code,
      variables,
      now: new Date(this.clock.now()),
      by: WORKFLOW_ACTOR,
    });
  }
}
