import type { UpstreamTarget, VideoGeneration } from '../../provider-adapter.js';
import { buildVideoRemix, buildVideoSubmit } from './build-video-submit.js';
import { decodeVideoPoll, decodeVideoSubmit } from './decode-video-job.js';
import { openAIJobHeaders } from './openai-job-headers.js';

function jobUrl(upstreamJobId: string, target: UpstreamTarget): string {
  return `${target.baseUrl}/videos/${encodeURIComponent(upstreamJobId)}`;
}

/**
 * The OpenAI Videos API (`/videos`, a job per video), at OpenAI or any server that speaks it —
 * the ingress shape of most gateways and of servers hosting video models.
 */
export const openAIVideoGeneration: VideoGeneration = {
  buildSubmit: buildVideoSubmit,
  decodeSubmit: decodeVideoSubmit,
  buildPoll: (upstreamJobId, target) => ({ method: 'GET', url: jobUrl(upstreamJobId, target), headers: openAIJobHeaders(target) }),
  decodePoll: decodeVideoPoll,
  buildCancel: (upstreamJobId, target) => ({ method: 'DELETE', url: jobUrl(upstreamJobId, target), headers: openAIJobHeaders(target) }),
  buildRemix: buildVideoRemix,
};
