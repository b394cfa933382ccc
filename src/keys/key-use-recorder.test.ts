import { describe, expect, it } from 'vitest';
import { KeyUseRecorder } from './key-use-recorder.js';

type Use = { readonly id: string; readonly at: Date };

function recording(fail = false): { writes: Use[][]; store: { markUsed(uses: readonly Use[]): Promise<void> }; failNext(value: boolean): void } {
  const writes: Use[][] = [];
  let failing = fail;
  return {
    writes,
    failNext: (value) => (failing = value),
    store: {
      async markUsed(uses) {
        if (failing) throw new Error('database down');
        writes.push([...uses]);
      },
    },
  };
}

const silent = { warn: () => undefined };

describe('KeyUseRecorder', () => {
  it('writes only the latest use per key, in one batch, and nothing when nothing happened', async () => {
    let now = 1_000;
    const { writes, store } = recording();
    const recorder = new KeyUseRecorder(store, silent, 60_000, () => now);
    recorder.record('key_a');
    now = 2_000;
    recorder.record('key_b');
    now = 3_000;
    recorder.record('key_a');
    await recorder.flush();
    await recorder.flush();
    expect(writes).toEqual([[{ id: 'key_a', at: new Date(3_000) }, { id: 'key_b', at: new Date(2_000) }]]);
  });

  it('keeps uses whose write failed for the next flush, unless a newer use replaced them', async () => {
    let now = 1_000;
    const { writes, store, failNext } = recording(true);
    const recorder = new KeyUseRecorder(store, silent, 60_000, () => now);
    recorder.record('key_a');
    recorder.record('key_b');
    await recorder.flush();
    expect(writes).toEqual([]);
    now = 2_000;
    recorder.record('key_b');
    failNext(false);
    await recorder.flush();
    expect(writes.map((batch) => [...batch].sort((left, right) => left.id.localeCompare(right.id)))).toEqual([[{ id: 'key_a', at: new Date(1_000) }, { id: 'key_b', at: new Date(2_000) }]]);
  });

  it('writes on its own every interval and what is left on close', async () => {
    const { writes, store } = recording();
    const recorder = new KeyUseRecorder(store, silent, 20);
    recorder.start();
    recorder.record('key_a');
    const deadline = Date.now() + 2_000;
    while (writes.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes.map((batch) => batch.map((use) => use.id))).toEqual([['key_a']]);
    recorder.record('key_b');
    await recorder.close();
    expect(writes.at(-1)?.map((use) => use.id)).toEqual(['key_b']);
  });
});
