import { defineConfig } from 'vitest/config';

/**
 * The tests that need nothing started: no build, no database, no Redis, no coding agent, no
 * browser, no gateway process. `npm run test:unit` runs them in well under a minute. The storage
 * and Redis contract suites among them skip, saying so, unless TEST_POSTGRES_URL / TEST_REDIS_URL
 * are set (scripts/with-postgres.js and scripts/with-redis.js set them; `npm test` runs both).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/docs/**/*.test.ts', 'test/scripts/**/*.test.ts', 'test/bench/**/*.test.ts', 'test/support/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two worker threads sharing one module graph each: these files import much of src/, and
    // loading it once per worker instead of once per file is what keeps the run under a minute on
    // two cores (about 40 s on a busy machine, over two minutes with a process per file). A unit
    // test that leaves global state behind for the next file would fail here first; the full
    // suite (vitest.config.ts) keeps one process per file.
    pool: 'threads',
    isolate: false,
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
  },
});
