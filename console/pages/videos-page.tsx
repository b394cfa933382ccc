import { useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { showUsd } from '../money.js';
import { useKeyNames } from '../parts/key-names.js';
import { ErrorNotice } from '../parts/notice.js';
import { showTime } from '../parts/time.js';
import { useLoad } from '../parts/use-load.js';
import { VideoJob } from '../parts/video-job.js';
import type { AdminVideo, List } from '../types.js';

/** Every key's video jobs from `/admin/videos`, refreshed each second while one is still running. */
export function VideosPage() {
  const keyName = useKeyNames();
  const [running, setRunning] = useState(true);
  const jobs = useLoad(
    async () => {
      const list = await getJson<List<AdminVideo>>('/admin/videos?limit=50');
      setRunning(list.data.some((job) => job.status === 'queued' || job.status === 'in_progress'));
      return list;
    },
    [],
    running ? 1_000 : 10_000,
  );
  return (
    <section>
      <ErrorNotice error={jobs.error} />
      {(jobs.data?.data ?? []).length === 0 && !jobs.loading ? <p class="hint">No video jobs yet.</p> : null}
      <div class="video-list">
        {(jobs.data?.data ?? []).map((job) => (
          <div key={job.id} class="panel">
            <VideoJob job={job} />
            <p class="hint id">
              key {keyName(job.key_id)} · {job.provider} · {job.mode} · created {showTime(job.created_at)} · cost {showUsd(job.cost_usd)}
            </p>
          </div>
        ))}
      </div>
    </section>
  );
}
