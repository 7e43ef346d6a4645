/**
 * `npm run build:server`: the BFF and the standalone sandbox bundled ahead of time into
 * `dist/server/` (`index.js`, `sandbox-main.js`), so the container starts them with plain `node`:
 * no TypeScript compiler at run time, no tsx in the production image, a start that does not
 * transpile some hundred files first.
 *
 * esbuild bundles our own sources (it resolves the package.json `imports` aliases `#server/*`,
 * `#common/*`, ...); packages stay external and are loaded from node_modules as usual (PGlite
 * finds its WebAssembly next to itself). Files the server reads at run time (SQL migrations, the
 * widget script, locales, the client build) are not bundled: they are found from the project root
 * (`common/project-root.ts`), so the bundle must run from inside the project (it does: `dist/`).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildServer(outdir = 'dist/server'): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: { index: 'server/index.ts', 'sandbox-main': 'server/sandbox-main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer(process.argv[2]);
}
