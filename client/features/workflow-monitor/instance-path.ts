import type { WorkflowStep } from '#client/api/workflows-client.ts';

/**
 * What the diagram of an instance highlights, read from the steps the engine recorded
 * (server/sandbox/services/processmanager/engine.ts: an element's `start` and `end`, a user
 * task's `wait`, a timer's `timer`, a sequence flow's `take`).
 */
export interface ExecutedPath {
  /** Elements the instance entered (ended or not), in the order first entered. */
  executed: string[];
  /** Sequence flows taken. */
  flows: string[];
  /** Elements started and not ended while the instance runs: its tokens now. */
  current: string[];
  /** The current elements that wait for a person (user tasks): "Complete task" offers them. */
  waitingTasks: string[];
  /** The element that failed, when the instance failed. */
  failed: string | null;
}

/** The failed task's element and message as the engine keeps them (`error` of the instance). */
export function instanceError(error: unknown): { taskKey: string | null; message: string } | null {
  if (error === null || error === undefined) return null;
  if (typeof error === 'string') return { taskKey: null, message: error };
  const e = error as { taskKey?: unknown; message?: unknown };
  return {
    taskKey: typeof e.taskKey === 'string' ? e.taskKey : null,
    message: typeof e.message === 'string' ? e.message : JSON.stringify(error),
  };
}

export function executedPath(
  history: readonly WorkflowStep[],
  status: string,
  error: unknown,
): ExecutedPath {
  const executed: string[] = [];
  const flows: string[] = [];
  // Elements entered and not left. A set, not a count: a retried task starts again after the
  // start of its failed run, which never ended.
  const open = new Set<string>();
  const types = new Map<string, string>();
  for (const step of history) {
    if (step.event === 'take') {
      if (!flows.includes(step.key)) flows.push(step.key);
      continue;
    }
    types.set(step.key, step.type);
    if (step.event === 'start') {
      if (!executed.includes(step.key)) executed.push(step.key);
      open.add(step.key);
    } else if (step.event === 'end') {
      open.delete(step.key);
    }
  }
  const failedKey = status === 'failed' ? (instanceError(error)?.taskKey ?? null) : null;
  // Tokens exist only while the instance runs; a cancelled or failed one has none left.
  const current = status === 'active' ? [...open] : [];
  return {
    executed,
    flows,
    current,
    waitingTasks: current.filter((key) => types.get(key) === 'UserTask'),
    failed: failedKey,
  };
}
