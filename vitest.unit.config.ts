import { defineConfig } from 'vitest/config';

/**
 * The tests that need nothing started: no build, no database, no Redis, no coding agent, no
 * browser, no gateway process. `npm run test:unit` runs them in well under a minute. The storage
 * and Redis contract suites among them skip, saying so, unless TEST_POSTGRES_URL / TEST_REDIS_URL
 * are set (scripts/with-postgres.js and scripts/with-redis.js set them; `npm test` runs both).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/docs/**/*.test.ts', 'test/scripts/**/*.test.ts', 'test/support/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
