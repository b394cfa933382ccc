import type { ImageRules, LegacyImageAlias } from '../../catalog/records/image-model-record.js';
import type { ClientImageRequest } from './client-image-request.js';

/**
 * A request checked against a legacy model's rules, restated in the current model's terms by the
 * alias's documented mapping: its qualities and sizes mapped, parameters the current model has no
 * use for dropped, and `response_format` made explicit because the legacy default (URLs) is what
 * the client expects.
 */
export function mapLegacyRequest(request: ClientImageRequest, legacy: LegacyImageAlias, current: ImageRules): ClientImageRequest {
  const { mapping } = legacy;
  // The legacy default where the current model can answer that way; else the current model's own.
  const legacyDefault = legacy.rules.defaultResponseFormat;
  const defaultFormat = current.responseFormats.includes(legacyDefault) ? legacyDefault : current.defaultResponseFormat;
  const mapped: ClientImageRequest = {
    ...request,
    response_format: request.response_format ?? defaultFormat,
    ...(request.quality === undefined ? {} : { quality: mapping.quality[request.quality] ?? request.quality }),
    ...(request.size === undefined ? {} : { size: mapping.size[request.size] ?? request.size }),
  };
  return Object.fromEntries(Object.entries(mapped).filter(([parameter]) => !mapping.dropped.includes(parameter))) as ClientImageRequest;
}
