import type { CatalogRoute } from '../../catalog/model-catalog.js';
import { AbortScope } from '../../call/abort-scope.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { GeneratedImage, ImageGenerationRequest, ImageGenerationResult, SubmittedImageJob } from '../../ir/image-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ImageJobs, ProviderAdapter, UpstreamCall } from '../../providers/provider-adapter.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../../upstream/upstream-client.js';
import type { ClientScope } from '../../call/client-scope.js';
import type { PrivateAddressRule } from '../videos/download-address-guard.js';
import { fetchJobImage } from './fetch-job-image.js';
import { waitOrAbort } from './wait-or-abort.js';

/** `images` in the config: how the gateway follows an image job while its client waits. */
export interface ImageJobSettings {
  /** The wait before each poll. */
  readonly pollIntervalMs: number;
  /** A job not ready this long after its submit fails with `upstream_timeout`, free. */
  readonly timeoutMs: number;
  /** The largest image fetched from a job's result URL. */
  readonly maxBytes: number;
  readonly privateAddresses: PrivateAddressRule;
}

/** The route of an upstream that makes images as jobs. */
export interface ImageJobRoute {
  readonly adapter: ProviderAdapter;
  readonly jobs: ImageJobs;
  readonly route: CatalogRoute;
}

/** A cancel is a courtesy to the upstream: not worth waiting long for. */
const cancelTimeoutMs = 10_000;

interface JobCallSettings {
  readonly signal: ClientScope;
  readonly timeoutMs: number;
  readonly jobs: ImageJobSettings;
}

/**
 * Makes the images of one request as upstream jobs while the client waits: submitted (one job per
 * image where the upstream makes one a job), polled until ready, and each image fetched at once
 * from its result URL, which expires within minutes. Images some jobs delivered are answered (and
 * billed) even when another job failed; with none delivered, the first failure is the call's. A
 * client that leaves stops the polling, and a job left behind is cancelled where the upstream can.
 */
export async function generateByJobs(candidate: ImageJobRoute, request: ImageGenerationRequest, settings: JobCallSettings): Promise<ImageGenerationResult> {
  const count = candidate.jobs.imagesPerJob === 'one' ? request.n : 1;
  const perJob = candidate.jobs.imagesPerJob === 'one' ? { ...request, n: 1 } : request;
  const deadline = Date.now() + settings.jobs.timeoutMs;
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => runJob(candidate, perJob, settings, deadline)));
  const images = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
  if (images.length === 0) {
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    throw failure === undefined ? new GatewayError('upstream_invalid_response', 'The upstream answered without any image.') : failure.reason;
  }
  const first = images[0] as GeneratedImage & { readonly format?: ImageGenerationResult['outputFormat'] };
  return {
    images: images.map(({ format: _format, ...image }) => image),
    ...(first.width === undefined || first.height === undefined ? {} : { size: `${first.width}x${first.height}` }),
    ...(first.format === undefined ? {} : { outputFormat: first.format }),
  };
}

type FetchedImage = GeneratedImage & { readonly format?: ImageGenerationResult['outputFormat'] };

/** One job from submit to its fetched images; a job the client stopped waiting for is cancelled where it can be. */
async function runJob(candidate: ImageJobRoute, request: ImageGenerationRequest, settings: JobCallSettings, deadline: number): Promise<FetchedImage[]> {
  const { jobs, route } = candidate;
  const abort = settings.signal.child();
  const submitted = jobs.decodeSubmit(await sendForJson(candidate, jobs.buildSubmit(request, route.target), abort, settings.timeoutMs), route.target);
  try {
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new GatewayError('upstream_timeout', `The upstream's image job was not ready within ${settings.jobs.timeoutMs} ms.`);
      await waitOrAbort(Math.min(settings.jobs.pollIntervalMs, remaining), abort);
      const state = jobs.decodePoll(await sendForJson(candidate, jobs.buildPoll(submitted, route.target), abort, settings.timeoutMs), submitted);
      if (state.status === 'pending') continue;
      if (state.imageUrls.length === 0) throw new GatewayError('upstream_invalid_response', 'The upstream finished the image job without any image.');
      const fetched: FetchedImage[] = [];
      for (const url of state.imageUrls) {
        const image = await fetchJobImage(url, {
          upstream: route.target,
          adapter: candidate.adapter,
          signal: abort,
          timeoutMs: settings.timeoutMs,
          maxBytes: settings.jobs.maxBytes,
          privateAddresses: settings.jobs.privateAddresses,
        });
        fetched.push({
          ...image,
          ...(state.revisedPrompt === undefined ? {} : { revisedPrompt: state.revisedPrompt }),
          // What the upstream billed is the job's: one image's where the job made one; else each is measured.
          ...(submitted.billedMegapixels === undefined || state.imageUrls.length > 1 ? {} : { billedMegapixels: submitted.billedMegapixels }),
        });
      }
      return fetched;
    }
  } catch (error) {
    if (abort.aborted || (error instanceof GatewayError && error.code === 'upstream_timeout')) cancelQuietly(candidate, submitted);
    throw error;
  }
}

/** A job nobody waits for any more is stopped where the upstream can; a failure to stop it changes nothing for the client. */
function cancelQuietly(candidate: ImageJobRoute, job: SubmittedImageJob): void {
  const call = candidate.jobs.buildCancel?.(job, candidate.route.target);
  if (call === undefined) return;
  // A scope of its own: the client's is aborted already.
  sendAuthorized(candidate.adapter, candidate.route.target, { ...call, signal: new AbortScope(), timeoutMs: cancelTimeoutMs })
    .then((response) => readBodyText(response))
    .catch(() => undefined);
}

/** One upstream call of the job, its JSON answer read whole; an error answer is the upstream's error. */
async function sendForJson(candidate: ImageJobRoute, call: UpstreamCall, abort: AbortScope, timeoutMs: number): Promise<unknown> {
  const { adapter, route } = candidate;
  const response = await sendAuthorized(adapter, route.target, { ...call, signal: abort, timeoutMs: route.timeoutMs ?? timeoutMs }).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  const text = await readBodyText(response).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  if (response.statusCode >= 400) throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  return parseUpstreamJson(text);
}
