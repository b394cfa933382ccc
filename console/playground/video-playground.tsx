import { useEffect, useState } from 'preact/hooks';
import { getJson, messageOf, sendJson } from '../api.js';
import { showUsd } from '../money.js';
import { ledgerCost } from '../parts/ledger-cost.js';
import { ErrorNotice } from '../parts/notice.js';
import { VideoJob } from '../parts/video-job.js';
import type { AdminVideo, List } from '../types.js';
import { PromptField } from '../parts/prompt-field.js';

/**
 * A video job: submitted to `/v1/videos`, then followed on `/admin/videos` (its progress, and once
 * done the signed URLs of its video and thumbnail); its cost is its ledger entry, written when it ends.
 */
export function VideoPlayground(props: { model: string }) {
  const [prompt, setPrompt] = useState('A lighthouse at dusk');
  const [seconds, setSeconds] = useState('4');
  const [size, setSize] = useState('1280x720');
  const [jobId, setJobId] = useState<string>();
  const [job, setJob] = useState<AdminVideo>();
  const [cost, setCost] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (jobId === undefined) return;
    let current = true;
    const follow = async () => {
      while (current) {
        const list = await getJson<List<AdminVideo>>('/admin/videos?limit=50');
        const found = list.data.find((item) => item.id === jobId);
        if (!current) return;
        if (found !== undefined) setJob(found);
        if (found !== undefined && found.status !== 'queued' && found.status !== 'in_progress') {
          const charged = await ledgerCost(found.id);
          if (current) setCost(charged);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    follow().catch((caught: unknown) => current && setError(messageOf(caught)));
    return () => {
      current = false;
    };
  }, [jobId]);
  const send = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setJob(undefined);
    setCost(undefined);
    try {
      const created = await sendJson<{ id: string }>('/v1/videos', 'POST', { model: props.model, prompt, seconds, size });
      setJobId(created.id);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const running = job === undefined ? jobId !== undefined : job.status === 'queued' || job.status === 'in_progress';
  return (
    <form class="panel form" onSubmit={send} aria-label="Video job">
      <PromptField label="Prompt" rows={3} value={prompt} onChange={setPrompt} />
      <div class="grid">
        <label class="field">
          <span>Seconds</span>
          <input name="seconds" value={seconds} onInput={(event) => setSeconds(event.currentTarget.value)} inputMode="numeric" />
        </label>
        <label class="field">
          <span>Size</span>
          <input name="size" value={size} onInput={(event) => setSize(event.currentTarget.value)} />
        </label>
      </div>
      <div class="actions">
        <button type="submit" disabled={running}>
          Start video job
        </button>
      </div>
      <ErrorNotice error={error} />
      {job === undefined ? null : <VideoJob job={job} />}
      {cost === undefined ? null : <p data-testid="call-cost">Cost: {showUsd(cost)}</p>}
    </form>
  );
}
