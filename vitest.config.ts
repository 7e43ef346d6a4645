import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{client,machines,common,server,scripts}/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
        define: { __BUILD_ID__: '"test"' },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/{integration,security}/**/*.test.ts'],
          // One seeded data directory that plain stacks copy instead of seeding their own.
          globalSetup: ['tests/support/stack-template.ts'],
          environment: 'node',
          testTimeout: 30_000,
          // A stack's start seeds a sandbox: 15-30 s on a quiet 2-core box, past 60 s when busy.
          hookTimeout: 120_000,
          // Each file starts its own sandbox and BFF; two cores, so keep it to two at a time.
          maxWorkers: 2,
        },
      },
    ],
  },
});
