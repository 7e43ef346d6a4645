import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { projectRootOf } from '#common/project-root.ts';

const root = projectRootOf(import.meta.url, (folder) =>
  existsSync(new URL('package.json', folder)),
);

/** An absolute path below the project root: `fromRoot('dist/client/index.html')`. */
export const fromRoot = (relative: string): string => fileURLToPath(new URL(relative, root));
