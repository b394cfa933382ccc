import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('is ready while the database answers', async () => {
    expect(await new Readiness(async () => undefined).check()).toBeUndefined();
  });

  it('is not ready while the database does not answer', async () => {
    const readiness = new Readiness(async () => {
      throw new Error('connection refused');
    });
    expect(await readiness.check()).toBe('database_unreachable');
  });

  it('is not ready when the database does not answer in time', async () => {
    const readiness = new Readiness(() => new Promise<void>(() => undefined), 20);
    expect(await readiness.check()).toBe('database_unreachable');
  });

  it('is not ready from the moment shutdown begins, without asking the database', async () => {
    let pings = 0;
    const readiness = new Readiness(async () => {
      pings += 1;
    });
    readiness.beginShutdown();
    expect(await readiness.check()).toBe('shutting_down');
    expect(pings).toBe(0);
  });

  it('answers shutting down when shutdown begins while the database is being asked', async () => {
    let answer!: () => void;
    const readiness = new Readiness(() => new Promise<void>((resolve) => (answer = resolve)));
    const checking = readiness.check();
    readiness.beginShutdown();
    answer();
    expect(await checking).toBe('shutting_down');
  });

  it('is not ready while a configured Redis does not answer, in time or at all', async () => {
    const refused = new Readiness(async () => undefined, 2_000, async () => {
      throw new Error('connection refused');
    });
    expect(await refused.check()).toBe('redis_unreachable');
    expect(await new Readiness(async () => undefined, 20, () => new Promise<void>(() => undefined)).check()).toBe('redis_unreachable');
    expect(await new Readiness(async () => undefined, 2_000, async () => undefined).check()).toBeUndefined();
  });

  it('names the database first when neither answers', async () => {
    const down = async () => {
      throw new Error('down');
    };
    expect(await new Readiness(down, 2_000, down).check()).toBe('database_unreachable');
  });
});
