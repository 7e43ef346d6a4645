import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SERVICE_NAMES, UPSTREAM_SERVICES } from '#server/sandbox/service-names.ts';
import { SERVICE_MODULES, migrationFiles, orderedServices } from './registry.ts';
import { inDependencyOrder } from './service.ts';

const servicesDir = path.dirname(fileURLToPath(import.meta.url));
const mod = (name: string, ...dependsOn: string[]) => ({ name, dependsOn }) as never;
const names = (list: { name: string }[]) => list.map((m) => m.name);

describe('inDependencyOrder', () => {
  it('puts every service after those it depends on, else keeps the listed order', () => {
    const order = names(inDependencyOrder([mod('c', 'b'), mod('a'), mod('b', 'a'), mod('d')]));
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses a cycle and names it', () => {
    expect(() => inDependencyOrder([mod('a'), mod('b', 'a', 'c'), mod('c', 'b')])).toThrow(
      'service dependency cycle: b -> c -> b',
    );
    expect(() => inDependencyOrder([mod('a', 'a')])).toThrow('cycle: a -> a');
  });

  it('refuses a dependency that is not registered', () => {
    expect(() => inDependencyOrder([mod('a'), mod('b', 'a', 'z')])).toThrow(
      'service b depends on z, which is not registered',
    );
  });

  it('refuses a service registered twice', () => {
    expect(() => inDependencyOrder([mod('a'), mod('a')])).toThrow('registered twice');
  });
});

describe('the registry', () => {
  it('registers exactly the services service-names.ts says the sandbox serves', () => {
    expect(names([...SERVICE_MODULES]).sort()).toEqual([...SANDBOX_SERVICE_NAMES].sort());
    for (const m of SERVICE_MODULES) expect(UPSTREAM_SERVICES[m.name].sandbox).toBe(true);
  });

  it('orders its services (no cycle, nothing missing)', () => {
    const order = names(orderedServices());
    for (const m of SERVICE_MODULES) {
      for (const dep of m.dependsOn) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(m.name));
    }
  });

  it('mounts each service under its own name', () => {
    for (const m of SERVICE_MODULES) expect(m.prefix).toBe(`/${m.name}/v1`);
  });

  it('has one folder per service, each declaring every migration file it holds', () => {
    const folders = readdirSync(servicesDir, { withFileTypes: true }).filter((e) =>
      e.isDirectory(),
    );
    expect(folders).toHaveLength(SERVICE_MODULES.length);
    const onDisk = folders.flatMap((folder) => {
      const dir = path.join(servicesDir, folder.name, 'migrations');
      return existsSync(dir) ? readdirSync(dir).map((file) => path.join(dir, file)) : [];
    });
    const declared = migrationFiles();
    expect([...declared].sort()).toEqual(onDisk.sort());
    // The version recorded in schema_migrations is the file name: unique across services.
    const versions = declared.map((file) => path.basename(file));
    expect(new Set(versions).size).toBe(versions.length);
  });
});
