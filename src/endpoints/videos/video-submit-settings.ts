import type { RoutingSettings } from '../../catalog/catalog-snapshot.js';
import type { VideoSubmitSettings } from '../../media/videos/submit-video-job.js';
import { fallbackPolicy } from '../../routing/fallback-policy.js';
import type { GatewayServices } from '../gateway-services.js';

/** How a submit of `modelId` (its public id) made from this request reaches its upstream, with this snapshot's routing. */
export function videoSubmitSettings(services: GatewayServices, routing: RoutingSettings, requestId: string, modelId: string, keyId: string | undefined): VideoSubmitSettings {
  return {
    store: services.storage.videoJobs,
    videos: services.config.videos,
    owner: services.videos.owner,
    fallback: fallbackPolicy(routing, services.circuitBreakers, keyId),
    timeoutMs: routing.timeout_ms,
    onFailure: (report) => {
      services.metrics.observeUpstreamError(report.route.target.providerName, modelId, report.error.code);
      services.logger.warn({ requestId, provider: report.route.target.providerName, attempt: report.attempt, code: report.error.code }, 'upstream video submit failed');
    },
    now: () => new Date(),
    caps: services.upstreamCaps,
  };
}
