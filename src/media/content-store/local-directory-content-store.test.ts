import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeContentStore } from './content-store-contract.test-support.js';
import { LocalDirectoryContentStore } from './local-directory-content-store.js';

describeContentStore('local directory', async () => new LocalDirectoryContentStore(await mkdtemp(path.join(os.tmpdir(), 'switchyard-content-'))));

it('leaves no temporary file behind after a failed write', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-content-'));
  const store = new LocalDirectoryContentStore(root);
  async function* failing(): AsyncIterable<Uint8Array> {
    yield Buffer.from('part');
    throw new Error('cut');
  }
  await expect(store.put('videos/video_9/content.mp4', failing(), 'video/mp4')).rejects.toThrow('cut');
  expect(await readdir(path.join(root, 'videos', 'video_9'))).toEqual([]);
});
