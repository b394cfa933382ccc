/**
 * A simulated video job is all in its id: what was asked and when, so a restarted simulator (the
 * gateway's in-process one starts again with the gateway) answers polls and downloads of jobs it
 * never saw. Only deletions are remembered, in memory.
 */
export interface SimVideoJob {
  readonly model: string;
  readonly seconds: number;
  readonly size: string;
  /** Epoch milliseconds of the submit. */
  readonly createdAt: number;
  /** How long the job takes to render. */
  readonly renderMs: number;
  /** The first words of the prompt, for the job record. */
  readonly prompt: string;
  /** `FAIL` (or, at Veo, `FILTER`) in the prompt. */
  readonly outcome: 'complete' | 'fail' | 'filter';
  readonly remixOf?: string;
  /** Tells apart identical submits made in the same millisecond. */
  readonly nonce: number;
}

export const defaultRenderMs = 3000;
const maxRenderMs = 600_000;

/** How a prompt steers a job: `[video-ms:N]` sets its render time; `FAIL` and `FILTER` its end. */
export function jobSteering(prompt: string): Pick<SimVideoJob, 'renderMs' | 'outcome'> {
  const pace = /\[video-ms:(\d+)\]/i.exec(prompt);
  const renderMs = pace === null ? defaultRenderMs : Math.min(maxRenderMs, Number(pace[1]));
  const outcome = /\bFILTER\b/.test(prompt) ? 'filter' : /\bFAIL\b/.test(prompt) ? 'fail' : 'complete';
  return { renderMs, outcome };
}

export function encodeJobId(job: SimVideoJob): string {
  return Buffer.from(JSON.stringify(job), 'utf8').toString('base64url');
}

export function decodeJobId(encoded: string): SimVideoJob | undefined {
  try {
    const job = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<SimVideoJob>;
    if (typeof job.model !== 'string' || typeof job.seconds !== 'number' || typeof job.size !== 'string' || typeof job.createdAt !== 'number' || typeof job.renderMs !== 'number') return undefined;
    return job as SimVideoJob;
  } catch {
    return undefined;
  }
}

export type SimJobPhase = { readonly status: 'queued' | 'in_progress'; readonly progress: number } | { readonly status: 'completed' | 'failed'; readonly progress: number };

/** Where a job stands at `now`: queued for its first tenth, then rising progress, then done. */
export function jobPhase(job: SimVideoJob, now: number): SimJobPhase {
  const fraction = job.renderMs <= 0 ? 1 : (now - job.createdAt) / job.renderMs;
  if (fraction >= 1) return { status: job.outcome === 'complete' ? 'completed' : 'failed', progress: job.outcome === 'complete' ? 100 : 0 };
  if (fraction < 0.1) return { status: 'queued', progress: 0 };
  return { status: 'in_progress', progress: Math.max(1, Math.min(99, Math.floor(fraction * 100))) };
}
