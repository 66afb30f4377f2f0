import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Black-box tests spawn many short Node processes; two workers match the 2-core CI machine.
    maxWorkers: 2,
    // Every test that runs a hook carries it (test/helpers/sandbox.ts runHook fails a test that does not): the hook
    // suites' runs again under Bun and against a silent stand-in (test/helpers/hook-suites.ts) run only those.
    tags: [{ name: 'hook', description: 'runs a hook as Claude Code does (runHook)' }],
    projects: [
      // pack-setup: the packed artifact every install-route test installs (black-box and e2e), packed once per project.
      {
        extends: true,
        test: {
          name: 'package',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**'],
          globalSetup: ['test/helpers/pack-setup.ts'],
          // One worker runs file after file without a fresh module graph each (the unit tests took half the CPU so):
          // no test file here mutates process.env or mocks a module, and the one module state that outlives a hook's
          // work (run-shape.ts marks) is cleared by the test that reads it.
          isolate: false,
        },
      },
      {
        // The real Claude Code: its globalSetup installs the pinned client (once, into a cache) only when an e2e file runs.
        // A test runs the client two to six times: ~2 s each when idle, 10-20 s on a loaded 2-core machine, where 30 s
        // timed out mid-test (and the timed-out test, still running, then fed the next test's fake API).
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/helpers/pack-setup.ts', 'test/e2e/client-setup.ts'],
          // No Bun on the PATH unless a Bun run puts one there: the hooks run as on a machine without it.
          setupFiles: ['test/e2e/path-setup.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
