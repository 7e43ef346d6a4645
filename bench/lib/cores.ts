import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A browser benchmark's server and browser on cores of their own: this process (the server the
 * bench starts in it) on the first core, Chromium on the others, through Linux's `taskset`. A
 * user's browser does not share its CPU with the back office's server; on these 2-core machines
 * an unpinned server answering the page's requests took the core from the page's main thread in
 * the middle of its tasks, doubling their wall-clock time. Answers the Chromium to launch and
 * how the cores were split, or the plain Chromium where pinning is not possible (one core, no
 * taskset).
 */
export function pinServerAndBrowser(chromiumPath: string): {
  executablePath: string;
  method: string;
  /** Gives this process every core again (a later bench of the same run needs them). */
  release(): void;
} {
  const count = cpus().length;
  if (count < 2 || !existsSync('/usr/bin/taskset'))
    return {
      executablePath: chromiumPath,
      method: 'server and browser share the cores',
      release: () => {},
    };
  // -a: every thread of this process, the database's and the server's too.
  execFileSync('/usr/bin/taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  const browserCores = `1-${count - 1}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const wrapper = join(dir, 'chromium');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec /usr/bin/taskset -c ${browserCores} ${chromiumPath} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  return {
    executablePath: wrapper,
    method: `server on core 0, Chromium on ${count > 2 ? `cores ${browserCores}` : 'core 1'}`,
    release: () =>
      execFileSync('/usr/bin/taskset', ['-a', '-cp', `0-${count - 1}`, String(process.pid)], {
        stdio: 'ignore',
      }),
  };
}
