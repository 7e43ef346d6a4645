import { sandboxFile } from '#server/sandbox/platform/paths.ts';
import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { ObjectStore } from '#server/sandbox/platform/object-store.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { SandboxServiceName } from '#server/sandbox/service-names.ts';

/** What a seed step gets: the object store too, for the demo files behind seeded documents. */
export interface SeedEnv {
  db: Db;
  logger: Logger;
  store: ObjectStore;
  /** The back office's public address: links in seeded e-mails start with it. */
  publicBaseUrl: string;
  /** The sandbox's clock: demo data that depends on today (terms renewed or expired) reads it. */
  clock: Clock;
}

/**
 * One upstream service of the sandbox, declared in its folder's `index.ts` and listed in
 * registry.ts; sandbox.ts mounts, migrates and seeds every module in dependency order.
 */
export interface ServiceModule {
  name: SandboxServiceName;
  /** Where its routers are mounted, `/<name>/v1`; `/<name>/health` and `/<name>/v1/health` too. */
  prefix: `/${SandboxServiceName}/v1`;
  /** Mounted in this order under the prefix: for a path two routers know, the first answers. */
  routers: ReadonlyArray<(ctx: SandboxContext) => Router>;
  /**
   * The SQL files it owns (absolute paths, see `sqlFiles`), applied in this order after those of
   * the services it depends on. The file name without `.sql` is the version recorded in
   * schema_migrations, so a file keeps its name for ever; numbers are unique across services.
   */
  migrations: readonly string[];
  /** Adds its demo data where it is missing; runs after the seeds of the services it depends on. */
  seed?: (env: SeedEnv) => Promise<void>;
  /**
   * Its jobs on the sandbox's clock (after every seed, before the sandbox listens): runs what is
   * due now and answers how to stop what it keeps running (timers, a browser), called and awaited
   * when the sandbox closes.
   */
  start?: (ctx: SandboxContext) => Promise<() => void | Promise<void>>;
  /** Services whose tables, seed data or index.ts exports it uses. */
  dependsOn: readonly SandboxServiceName[];
}

/**
 * The absolute paths of a service's migration files (`services/<folder>/migrations/<name>`), named
 * from the project root so that the bundled server finds them too.
 */
export function sqlFiles(folder: string, names: readonly string[]): string[] {
  return names.map((name) => sandboxFile(`services/${folder}/migrations/${name}`));
}

/**
 * The modules so that each comes after every module it depends on; among modules free to go, the
 * one listed first goes first, so the order is stable. Refuses a duplicate name, a dependency that
 * is not listed and a cycle, naming them: a sandbox that cannot order its services must not start.
 */
export function inDependencyOrder<M extends Pick<ServiceModule, 'name' | 'dependsOn'>>(
  modules: readonly M[],
): M[] {
  const byName = new Map<string, M>();
  for (const m of modules) {
    if (byName.has(m.name)) throw new Error(`service ${m.name} is registered twice`);
    byName.set(m.name, m);
  }
  for (const m of modules) {
    for (const dep of m.dependsOn) {
      if (!byName.has(dep))
        throw new Error(`service ${m.name} depends on ${dep}, which is not registered`);
    }
  }
  const ordered: M[] = [];
  const placed = new Set<string>();
  while (ordered.length < modules.length) {
    const next = modules.find(
      (m) => !placed.has(m.name) && m.dependsOn.every((dep) => placed.has(dep)),
    );
    if (!next)
      throw new Error(`service dependency cycle: ${cycleOf(modules, placed).join(' -> ')}`);
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** One cycle among the modules not yet placed, for the error message: a -> b -> a. */
function cycleOf<M extends Pick<ServiceModule, 'name' | 'dependsOn'>>(
  modules: readonly M[],
  placed: ReadonlySet<string>,
): string[] {
  const left = new Map(modules.filter((m) => !placed.has(m.name)).map((m) => [m.name, m] as const));
  // Every module left has a dependency left, so walking them must come back to one already seen.
  const path: string[] = [];
  let at = left.keys().next().value!;
  while (!path.includes(at)) {
    path.push(at);
    at = left.get(at)!.dependsOn.find((dep) => left.has(dep))!;
  }
  return [...path.slice(path.indexOf(at)), at];
}
