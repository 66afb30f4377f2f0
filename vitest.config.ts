import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The packed artifact every install-route test installs: packed once per run.
    globalSetup: ['test/helpers/pack-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Black-box tests spawn many short Node processes; two workers match the 2-core CI machine.
    maxWorkers: 2,
  },
});
