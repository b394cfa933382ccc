import type { AdminVideo } from '../types.js';

/**
 * One job: its state, a progress bar, why it failed, and for a finished job its thumbnail and a
 * player, both loaded through the signed URLs `/admin/videos` hands out (no header needed).
 */
export function VideoJob(props: { job: AdminVideo }) {
  const { job } = props;
  const urls = job.content_urls;
  const state = shownState(job);
  return (
    <div class="video-job" data-video-id={job.id} data-status={state}>
      <h3 class="id">
        {job.model} · {job.seconds}s · {job.size} <span class={`badge ${state}`}>{state.replace('_', ' ')}</span>
      </h3>
      <p class="hint id">{job.id}</p>
      <label class="progress">
        <span>{job.progress} %</span>
        <progress max={100} value={job.progress} aria-label={`Progress of ${job.id}`} />
      </label>
      {job.error === null ? null : (
        <p class="error">
          {job.error.code}: {job.error.message}
        </p>
      )}
      {urls?.video === undefined ? null : (
        <div class="media">
          {urls.thumbnail === undefined ? null : <img src={urls.thumbnail} alt={`Thumbnail of ${job.id}`} loading="lazy" />}
          <video src={urls.video} controls muted playsInline preload="metadata" />
        </div>
      )}
    </div>
  );
}

/**
 * The state an operator should see: a job its owner deleted keeps the state it reached (a deleted
 * completed job is still `completed` in the API, its content gone), so it is shown as deleted.
 */
function shownState(job: AdminVideo): string {
  return job.deleted_at === null || job.status === 'cancelled' ? job.status : 'deleted';
}
