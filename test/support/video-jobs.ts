import type OpenAI from 'openai';
import type { Video } from 'openai/resources/videos';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Worker settings that make jobs move in test time rather than in minutes. */
export const quickVideoSettings = { poll_interval_ms: 100, max_poll_interval_ms: 300, claim_interval_ms: 50, lease_seconds: 3 } as const;

/** A fresh content directory, so tests never share stored videos. */
export function temporaryContentDirectory(): string {
  return mkdtempSync(path.join(tmpdir(), 'switchyard-content-'));
}

/**
 * Polls a job through the SDK until it finishes, recording every progress figure seen, so a test
 * can check that progress never went back.
 */
export async function pollUntilDone(client: OpenAI, id: string, timeoutMs = 20_000): Promise<{ video: Video; progress: number[]; statuses: string[] }> {
  const progress: number[] = [];
  const statuses: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const video = await client.videos.retrieve(id);
    progress.push(video.progress);
    statuses.push(video.status);
    if (video.status === 'completed' || video.status === 'failed') return { video, progress, statuses };
    if (Date.now() > deadline) throw new Error(`video ${id} still ${video.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
