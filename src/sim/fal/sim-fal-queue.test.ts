import { ApiError, ValidationError, createFalClient } from '@fal-ai/client';
import { describe, expect, it } from 'vitest';
import { useSimulator } from '../sim.test-support.js';

const sim = useSimulator();
const endpoint = 'fal-ai/veo3.1';

/** fal's own SDK, its calls for https://queue.fal.run carried to the simulator's `/fal`. */
function sdk() {
  const toSimulator: typeof fetch = (input, init) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    return fetch(target.replace('https://queue.fal.run', `${sim.url}/fal`), init);
  };
  return createFalClient({ credentials: 'any-key', fetch: toSimulator });
}

describe('the simulator\'s fal queue, driven by @fal-ai/client', () => {
  it('queues, runs and completes a request whose result links a real MP4 of the asked length', async () => {
    const updates: string[] = [];
    const result = await sdk().subscribe(endpoint, {
      input: { prompt: 'a lighthouse [video-ms:300]', duration: '4s', aspect_ratio: '9:16', resolution: '720p' },
      pollInterval: 20,
      onQueueUpdate: (update) => updates.push(update.status),
    });
    expect(updates.at(-1)).toBe('COMPLETED');
    const video = (result.data as { video: { url: string; content_type: string } }).video;
    expect(video.content_type).toBe('video/mp4');
    const bytes = Buffer.from(await (await fetch(video.url)).arrayBuffer());
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('answers a FILTER prompt\'s result with fal\'s content-policy 422', async () => {
    const failure = await sdk().subscribe(endpoint, { input: { prompt: 'FILTER me [video-ms:100]' }, pollInterval: 20 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).fieldErrors).toMatchObject([{ type: 'content_policy_violation' }]);
  });

  it('cancels a running request with PUT', async () => {
    const client = sdk();
    const { request_id: requestId } = await client.queue.submit(endpoint, { input: { prompt: 'long [video-ms:60000]' } });
    await client.queue.cancel(endpoint, { requestId });
    expect((await client.queue.status(endpoint, { requestId })).status).toBe('COMPLETED');
    expect(await client.queue.result(endpoint, { requestId }).catch((error: unknown) => error)).toBeInstanceOf(ApiError);
  });
});
