import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A service reaches another only through that service's `index.ts` (server/sandbox/README.md), so
 * its route files, seeds and helpers can change without breaking a neighbour. The lint boundary
 * tool says the same; this scan holds the rule on its own, on every specifier form
 * (`#server/sandbox/services/...`, relative paths) and on `import`, `export ... from` and `import()`.
 */
const servicesDir = path.dirname(fileURLToPath(import.meta.url));
const sandboxDir = path.dirname(servicesDir);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier in a file, multi-line import lists included. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)) found.push(m[1]!);
  return found;
}

/** The file a specifier names, or null for a package or another top-level alias. */
function resolve(fromFile: string, spec: string): string | null {
  if (spec.startsWith('#server/sandbox/')) return path.join(sandboxDir, spec.slice(16));
  if (spec.startsWith('.')) return path.resolve(path.dirname(fromFile), spec);
  return null;
}

/** The service a file belongs to (its folder under services/), or null outside them. */
function serviceOf(file: string): string | null {
  const rel = path.relative(servicesDir, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0]! : null;
}

/** `services/<a>/...` importing a file of `services/<b>/` other than its index.ts. */
export function crossServiceViolations(file: string, source: string): string[] {
  const own = serviceOf(file);
  if (!own) return [];
  return specifiers(source).filter((spec) => {
    const target = resolve(file, spec);
    if (!target) return false;
    const other = serviceOf(target);
    if (!other || other === own) return false;
    return path.relative(path.join(servicesDir, other), target) !== 'index.ts';
  });
}

describe('service layout', () => {
  it('no service imports a file of another service except its index.ts', () => {
    const found = sourceFiles(servicesDir).flatMap((file) =>
      crossServiceViolations(file, readFileSync(file, 'utf8')).map(
        (spec) => `${path.relative(sandboxDir, file)} imports ${spec}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('keeps the platform below the services and the dev tools', () => {
    const platformDir = path.join(sandboxDir, 'platform');
    const found = sourceFiles(platformDir).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .map((spec) => resolve(file, spec))
        .filter((target): target is string => target !== null)
        .filter((target) => !target.startsWith(platformDir + path.sep))
        .map(
          (target) =>
            `${path.relative(sandboxDir, file)} imports ${path.relative(sandboxDir, target)}`,
        ),
    );
    expect(found).toEqual([]);
  });

  it('lets the BFF read the service names without loading the sandbox', () => {
    const source = readFileSync(path.join(sandboxDir, 'service-names.ts'), 'utf8');
    expect(specifiers(source)).toEqual([]);
  });

  it('refuses the import forms a route file could sneak through', () => {
    const file = path.join(servicesDir, 'claim', 'claim-routes.ts');
    const bad = [
      "import { x } from '#server/sandbox/services/partner/partner-routes.ts';",
      "import {\n  a,\n  b,\n} from '../partner/partner-routes.ts';",
      "export { y } from '#server/sandbox/services/insurance/seed-policies.ts';",
      "const m = await import('../insurance/lead-routes.ts');",
    ];
    for (const code of bad) expect(crossServiceViolations(file, code)).toHaveLength(1);
    const good = [
      "import { x } from '#server/sandbox/services/partner/index.ts';",
      "import { y } from './settlement-routes.ts';",
      "import { z } from '#server/sandbox/platform/errors.ts';",
      "import * as v from 'valibot';",
    ];
    for (const code of good) expect(crossServiceViolations(file, code)).toEqual([]);
  });
});
