import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Black-box tests spawn many short Node processes; two workers match the 2-core CI machine.
    maxWorkers: 2,
  },
});
