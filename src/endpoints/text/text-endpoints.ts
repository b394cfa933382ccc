import type { FormatName } from '../../ir/format-name.js';
import type { EndpointFamily } from '../../keys/endpoint-family.js';
import type { GatewayServices } from '../gateway-services.js';
import { responsesStorageStep } from './responses-storage-step.js';
import type { PrepareBody } from './text-endpoint.js';

export interface TextEndpointPath {
  readonly path: string;
  readonly family: EndpointFamily;
  readonly format: FormatName;
  readonly prepare?: (services: GatewayServices) => PrepareBody;
}

/** Text endpoints: path (also served under /v1) → endpoint family and client format. */
export const textEndpoints: readonly TextEndpointPath[] = [
  { path: '/chat/completions', family: 'chat', format: 'chat' },
  { path: '/messages', family: 'messages', format: 'messages' },
  { path: '/responses', family: 'responses', format: 'responses', prepare: responsesStorageStep },
];

/** Every path a text endpoint answers on: its own and the same under `/v1`. */
export function textEndpointPaths(endpoint: TextEndpointPath): readonly string[] {
  return [endpoint.path, `/v1${endpoint.path}`];
}
