/**
 * A prediction as the fake Replicate keeps it, and where it stands at a moment of the fake's
 * clock: `starting` while queued, `processing` while rendering, then its ending. The prompt
 * steers the ending, as a test needs it: `[fail]` fails, `[nsfw]` is refused by the model's
 * safety check, `[abort]` passes its deadline before starting; `[render-ms:N]` sets the render time.
 */
export interface FakePrediction {
  readonly id: string;
  readonly model: string;
  readonly version: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
  readonly queueMs: number;
  readonly renderMs: number;
  readonly ending: 'succeeded' | 'failed' | 'nsfw' | 'aborted';
  /** The video the model makes: its frame size and length. */
  readonly size: string;
  readonly seconds: number;
  /** Set when the prediction was cancelled: the clock's time then. */
  canceledAt?: number;
}

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';

/** Replicate removes an API prediction's inputs, outputs and logs an hour after it ends. */
export const dataRetentionMs = 60 * 60 * 1000;

export function endingOf(prompt: string): FakePrediction['ending'] {
  if (/\[nsfw\]/i.test(prompt)) return 'nsfw';
  if (/\[abort\]/i.test(prompt)) return 'aborted';
  if (/\[fail\]/i.test(prompt)) return 'failed';
  return 'succeeded';
}

export function renderMsOf(prompt: string, fallback: number): number {
  const match = /\[render-ms:(\d+)\]/i.exec(prompt);
  return match === null ? fallback : Number(match[1]);
}

/** When the prediction ended, or undefined while it runs. */
export function completedAt(prediction: FakePrediction, now: number): number | undefined {
  if (prediction.canceledAt !== undefined) return prediction.canceledAt;
  // A deadline passes while the prediction still waits for a worker: it never starts.
  const end = prediction.ending === 'aborted' ? prediction.createdAt + prediction.queueMs : prediction.createdAt + prediction.queueMs + prediction.renderMs;
  return now >= end ? end : undefined;
}

export function statusAt(prediction: FakePrediction, now: number): PredictionStatus {
  if (prediction.canceledAt !== undefined) return 'canceled';
  const ended = completedAt(prediction, now);
  if (ended === undefined) return now < prediction.createdAt + prediction.queueMs ? 'starting' : 'processing';
  if (prediction.ending === 'succeeded') return 'succeeded';
  return prediction.ending === 'aborted' ? 'aborted' : 'failed';
}

/** What a video model prints: a tqdm bar over its 50 steps, as far as the render has got. */
function logsAt(prediction: FakePrediction, now: number): string {
  const elapsed = Math.max(0, now - prediction.createdAt - prediction.queueMs);
  const steps = Math.min(50, Math.floor((elapsed / Math.max(1, prediction.renderMs)) * 50));
  const percent = steps * 2;
  const bar = '#'.repeat(Math.floor(percent / 10)).padEnd(10, ' ');
  return `Generating video...\n${String(percent).padStart(3, ' ')}%|${bar}| ${steps}/50 [00:00<00:00]`;
}

function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** The prediction object Replicate answers with (replicate-javascript's `Prediction`). */
export function predictionObject(prediction: FakePrediction, now: number, apiRoot: string, outputUrl: string): Record<string, unknown> {
  const status = statusAt(prediction, now);
  const ended = completedAt(prediction, now);
  const removed = ended !== undefined && now >= ended + dataRetentionMs;
  const started = status === 'starting' || status === 'aborted' ? undefined : prediction.createdAt + prediction.queueMs;
  const get = `${apiRoot}/predictions/${prediction.id}`;
  const errors: Partial<Record<PredictionStatus, string>> = {
    failed: prediction.ending === 'nsfw' ? 'NSFW content detected. Try running it again, or try a different prompt.' : 'Prediction failed: the model ran out of memory.',
  };
  return {
    id: prediction.id,
    model: prediction.model,
    version: prediction.version,
    input: removed ? {} : prediction.input,
    logs: removed || status === 'starting' ? '' : logsAt(prediction, now),
    output: status === 'succeeded' && !removed ? outputUrl : null,
    data_removed: removed,
    error: errors[status] ?? null,
    status,
    source: 'api',
    created_at: iso(prediction.createdAt),
    started_at: iso(started),
    completed_at: iso(ended),
    urls: { get, cancel: `${get}/cancel`, web: `https://replicate.com/p/${prediction.id}` },
    ...(status === 'succeeded' && started !== undefined && ended !== undefined ? { metrics: { predict_time: (ended - started) / 1000 } } : {}),
  };
}
