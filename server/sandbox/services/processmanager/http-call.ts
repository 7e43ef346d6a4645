import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { SANDBOX_SERVICE_NAMES } from '#server/sandbox/service-names.ts';
import { systemUserToken } from '#server/sandbox/services/tenant/index.ts';
import type { TaskContext } from './task-registry.ts';

/**
 * The `http.call` service task (issue 17): a workflow calls an endpoint of another service of
 * this sandbox, `http.call?method=PATCH&path=/claimservice/v1/claims/{entityCode}&body=...`,
 * as the workspace's system user (tenant/system-user.ts), and keeps the answer in a variable.
 *
 * Never anywhere else: the path is a path of this sandbox, never a URL, another host or a `..`
 * that climbs out of the service, checked when a version is saved (bpmn.ts) and again once the
 * variables are filled in, since a variable may hold anything. Variables go into the path
 * encoded as one segment and into the JSON body as JSON values, so that a value cannot change
 * where the call goes or what else the body says.
 *
 * Parameters: `method` GET (default), POST or PATCH; `path`; `body` a JSON document for POST and
 * PATCH, where a string `"{name}"` becomes the variable's value and `{name}` inside a longer
 * string its text (`{name.field}` reads a field of a variable, such as an earlier answer); `resultVariable` (default `response`) gets the answer's JSON (or text).
 */

export const HTTP_CALL_RAW_PARAMS = ['path', 'body'] as const;

const METHODS = new Set(['GET', 'POST', 'PATCH']);
const VARIABLE = /^[A-Za-z_]\w{0,63}$/;
/** Names that would reach an object's prototype instead of a variable. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const PLACEHOLDER = /\{(\w+(?:\.\w+)*)\}/g;
const CALL_TIMEOUT_MS = 10_000;

/**
 * The services a workflow may call: every one this sandbox serves except the process manager
 * itself (a workflow starting, retrying or cancelling workflows) and the auth service (sign-in,
 * which only the BFF calls).
 */
export const CALLABLE_SERVICES: ReadonlySet<string> = new Set(
  SANDBOX_SERVICE_NAMES.filter((name) => name !== 'processmanager' && name !== 'authservice'),
);

/** What is wrong with a path (a template or a filled one); null: it stays in the sandbox. */
function pathProblem(path: string): string | null {
  if (!path.startsWith('/') || path.startsWith('//'))
    return `the path must start with one "/" (a path of this sandbox, not a URL): ${path}`;
  if (/[\\\s\p{Cc}]/u.test(path) || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.includes('://'))
    return `the path must be a path of this sandbox, not a URL: ${path}`;
  const segments = path.split(/[?#]/, 1)[0]!.split('/').slice(1);
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `the path has a malformed escape: ${path}`;
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\'))
      return `the path must not climb out of its service ("..", "."): ${path}`;
  }
  const service = segments[0] ?? '';
  if (!CALLABLE_SERVICES.has(service))
    return `the path must begin with a service a workflow may call (${[...CALLABLE_SERVICES].join(', ')}): ${path}`;
  return null;
}

/** The deployment's check of an http.call's parameters (task-registry.ts). */
export function checkHttpCall(params: Record<string, string>): string | null {
  const method = (params.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) return `http.call: method must be GET, POST or PATCH, not ${method}`;
  if (!params.path) return 'http.call: the parameter path is missing';
  const problem = pathProblem(params.path);
  if (problem) return `http.call: ${problem}`;
  if (params.body !== undefined) {
    if (method === 'GET') return 'http.call: a GET sends no body';
    try {
      JSON.parse(params.body);
    } catch {
      return 'http.call: the body must be JSON';
    }
  }
  if (
    params.resultVariable !== undefined &&
    (!VARIABLE.test(params.resultVariable) || RESERVED.has(params.resultVariable))
  )
    return `http.call: resultVariable must be a variable name, not ${params.resultVariable}`;
  return null;
}

export interface HttpAccess {
  signer: TokenSigner;
  /** The sandbox's own address, known once it listens. */
  ownUrl: Promise<string>;
}

/** Each sandbox's access, by its database (the runtime's TaskContext carries the database). */
const access = new WeakMap<object, HttpAccess>();

export function openHttpAccess(db: Db, http: HttpAccess): () => void {
  access.set(db, http);
  return () => access.delete(db);
}

/** `{name}` or `{answer.claim.version}`: a variable, or a field of one (an earlier answer). */
function lookup(vars: Record<string, unknown>, name: string): unknown {
  let value: unknown = vars;
  for (const key of name.split('.')) {
    if (!value || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const text = (value: unknown) =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const fillPath = (template: string, vars: Record<string, unknown>) =>
  template.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(text(lookup(vars, name))));

function fillBody(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+(?:\.\w+)*)\}$/.exec(value);
    if (whole) return lookup(vars, whole[1]!) ?? null;
    return value.replace(PLACEHOLDER, (_, name: string) => text(lookup(vars, name)));
  }
  if (Array.isArray(value)) return value.map((v) => fillBody(v, vars));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillBody(v, vars)]));
  return value;
}

export async function httpCall(params: Record<string, string>, ctx: TaskContext): Promise<void> {
  const problem = checkHttpCall(params);
  if (problem) throw new Error(problem);
  const http = access.get(ctx.db);
  if (!http) throw new Error('http.call: this sandbox does not serve calls from workflows');
  const vars: Record<string, unknown> = { ...ctx.variables, entityCode: ctx.entityCode };
  const method = (params.method ?? 'GET').toUpperCase();
  const path = fillPath(params.path!, vars);
  const filledProblem = pathProblem(path);
  if (filledProblem) throw new Error(`http.call: ${filledProblem}`);
  const base = new URL(await http.ownUrl);
  const url = new URL(path, base);
  // Belt and braces: whatever URL parsing made of it, it is this sandbox and a callable service.
  if (url.origin !== base.origin || !CALLABLE_SERVICES.has(url.pathname.split('/')[1] ?? ''))
    throw new Error(`http.call: ${path} does not stay in this sandbox`);
  const token = await systemUserToken(ctx.db as Db, http.signer, ctx.tenantId);
  const body =
    params.body === undefined ? undefined : JSON.stringify(fillBody(JSON.parse(params.body), vars));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`http.call ${method} ${path}: no answer (${(err as Error).message})`);
  }
  const raw = await res.text();
  let answer: unknown = raw;
  try {
    answer = raw ? JSON.parse(raw) : null;
  } catch {
    // Not JSON: kept as the text it is.
  }
  if (!res.ok) {
    const detail =
      answer && typeof answer === 'object'
        ? [(answer as { error?: unknown }).error, (answer as { message?: unknown }).message]
            .filter((p) => typeof p === 'string' && p)
            .join(': ')
        : String(answer ?? '').slice(0, 200);
    throw new Error(
      `http.call ${method} ${path} answered ${res.status}${detail ? ` ${detail}` : ''}`,
    );
  }
  ctx.variables[params.resultVariable ?? 'response'] = answer;
}
