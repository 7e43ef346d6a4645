import { describe, expect, it } from 'vitest';
import { projectRootOf } from './project-root.ts';

describe('projectRootOf', () => {
  const rootAt = (href: string) => (folder: URL) => folder.href === href;

  it('finds the root from a source file and from the bundle, at different depths', () => {
    const isRoot = rootAt('file:///app/');
    expect(projectRootOf('file:///app/server/routes/csv-export.ts', isRoot).href).toBe(
      'file:///app/',
    );
    expect(projectRootOf('file:///app/dist/server/index.js', isRoot).href).toBe('file:///app/');
  });

  it('says so when no folder above is a root', () => {
    expect(() => projectRootOf('file:///a/b/c.js', () => false)).toThrow(/no project root/);
  });
});
