import type { UpstreamTarget, VideoGeneration } from '../provider-adapter.js';
import { buildRunwaySubmit } from './build-runway-submit.js';
import { checkRunwayRoute } from './check-runway-route.js';
import { decodeRunwaySubmit, decodeRunwayTask } from './decode-runway-task.js';
import { runwayBodilessHeaders, runwayUrl } from './runway-headers.js';

function taskUrl(taskId: string, target: UpstreamTarget): string {
  return runwayUrl(target, `/v1/tasks/${encodeURIComponent(taskId)}`);
}

/**
 * Runway's generation tasks: submitted to `/v1/text_to_video` or `/v1/image_to_video`, polled at
 * `/v1/tasks/{id}`, cancelled with `DELETE /v1/tasks/{id}` (which Runway allows while a task is
 * pending, throttled or running). No remix.
 */
export const runwayVideoGeneration: VideoGeneration = {
  buildSubmit: buildRunwaySubmit,
  decodeSubmit: (body) => decodeRunwaySubmit(body),
  buildPoll: (taskId, target) => ({ method: 'GET', url: taskUrl(taskId, target), headers: runwayBodilessHeaders(target) }),
  decodePoll: (body) => decodeRunwayTask(body),
  buildCancel: (taskId, target) => ({ method: 'DELETE', url: taskUrl(taskId, target), headers: runwayBodilessHeaders(target) }),
  checkRoute: checkRunwayRoute,
};
