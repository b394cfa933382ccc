import { describe, expect, it } from 'vitest';
import { ffprobe } from '../../../test/support/ffprobe.js';
import { useSimulator } from '../sim.test-support.js';

const sim = useSimulator();
const bearer = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

async function call(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${sim.url}${path}`, { ...init, headers: { ...bearer, ...(init.headers as Record<string, string> | undefined) } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function untilDone(taskId: string): Promise<Record<string, unknown>[]> {
  const answers: Record<string, unknown>[] = [];
  for (;;) {
    const answer = await call(`/v1/query/video_generation?task_id=${taskId}`);
    answers.push(answer);
    if (answer.status === 'Success' || answer.status === 'Fail') return answers;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('simulator: MiniMax Hailuo video', () => {
  it('submits, queries until Success, names the file and serves a real MP4 of the resolution and length', async () => {
    const submitted = await call('/v1/video_generation', { method: 'POST', body: JSON.stringify({ model: 'MiniMax-Hailuo-02', prompt: 'a lighthouse [video-ms:600]', duration: 6, resolution: '768P' }) });
    expect(submitted).toMatchObject({ task_id: expect.any(String) as string, base_resp: { status_code: 0, status_msg: 'success' } });
    const answers = await untilDone(String(submitted.task_id));
    expect(answers.map((answer) => answer.status)).toContain('Processing');
    const done = answers.at(-1) ?? {};
    expect(done).toMatchObject({ status: 'Success', video_width: 1366, video_height: 768 });
    const retrieved = await call(`/v1/files/retrieve?file_id=${String(done.file_id)}`);
    const link = String((retrieved.file as Record<string, unknown>).download_url);
    const video = await fetch(link);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const probed = await ffprobe(Buffer.from(await video.arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1366, height: 768 });
    expect(Math.abs(probed.durationSeconds - 6)).toBeLessThan(0.1);
  });

  it('refuses as MiniMax does: HTTP 200 with a status code', async () => {
    expect(await call('/v1/video_generation', { method: 'POST', body: JSON.stringify({ model: 'MiniMax-Hailuo-02', prompt: 'x', duration: 10, resolution: '1080P' }) })).toMatchObject({ base_resp: { status_code: 2013 } });
    expect(await call('/v1/video_generation', { method: 'POST', body: '{}', headers: { authorization: '' } })).toMatchObject({ base_resp: { status_code: 1004 } });
    const filtered = await call('/v1/video_generation', { method: 'POST', body: JSON.stringify({ model: 'MiniMax-Hailuo-02', prompt: 'FILTER me [video-ms:200]', duration: 6, resolution: '512P' }) });
    expect((await untilDone(String(filtered.task_id))).at(-1)).toMatchObject({ status: 'Fail', base_resp: { status_code: 1027 } });
  });
});
