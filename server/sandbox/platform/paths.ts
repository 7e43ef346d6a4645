import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { projectRootOf } from '#common/project-root.ts';

// The sandbox's own copy of the BFF's server/paths.ts: the sandbox never imports the BFF, and the
// walk itself is shared (common/project-root.ts).
const sandboxRoot = new URL(
  'server/sandbox/',
  projectRootOf(import.meta.url, (folder) => existsSync(new URL('package.json', folder))),
);

/** An absolute path below `server/sandbox/`, from its sources or its bundle alike. */
export const sandboxFile = (relative: string): string =>
  fileURLToPath(new URL(relative, sandboxRoot));
