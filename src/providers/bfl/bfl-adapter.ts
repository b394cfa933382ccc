import { apiRoot } from '../api-root.js';
import type { ProviderAdapter, UpstreamCall } from '../provider-adapter.js';
import { buildBflSubmit } from './build-bfl-submit.js';
import { bflHeaders, bflResultUrl, sendsKeyTo } from './bfl-endpoint.js';
import { decodeBflError } from './decode-bfl-error.js';
import { decodeBflPoll, decodeBflSubmit } from './decode-bfl-task.js';

/**
 * Black Forest Labs' FLUX API: an image is a task submitted to `/v1/{model}` and polled at the
 * `polling_url` its answer names, used as given (the cluster that holds the task may be another
 * regional host). The key (`x-key`) goes only to BFL's hosts and the configured root. Kontext and
 * the FLUX.2 models edit from the client's images; BFL has no cancel, so a client that leaves
 * only stops the polling.
 */
export const bflAdapter: ProviderAdapter = {
  kind: 'bfl',
  // The global endpoint fails over across clusters; `api.eu.bfl.ai` and `api.us.bfl.ai` keep data in one region.
  apiRoot: apiRoot({ defaultBaseUrl: 'https://api.bfl.ai', pathOnOrigin: '/bfl', redundantSuffix: /\/v1$/, credentialRequired: true }),
  upstreamHeaders: (target) => bflHeaders(target),
  decodeError: decodeBflError,
  images: {
    edits: true,
    jobs: {
      imagesPerJob: 'one',
      buildSubmit: buildBflSubmit,
      decodeSubmit: decodeBflSubmit,
      buildPoll(job, target): UpstreamCall {
        const url = job.pollUrl ?? bflResultUrl(target, job.upstreamJobId);
        const { 'content-type': _json, ...headers } = bflHeaders(target);
        return { method: 'GET', url, headers: sendsKeyTo(url, target) ? headers : {} };
      },
      decodePoll: (body) => decodeBflPoll(body),
    },
  },
};
