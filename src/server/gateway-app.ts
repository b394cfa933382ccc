import { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { GatewayError } from '../errors/gateway-error.js';
import { clientFormats } from '../formats/registry.js';
import type { FormatName } from '../formats/client-format.js';
import type { EndpointFamily } from '../keys/endpoint-family.js';
import { errorResponse } from './error-response.js';
import type { GatewayServices } from './gateway-services.js';
import { handleListModels, handleRetrieveModel } from './models-endpoint.js';
import { newRequestId } from './request-id.js';
import { handleTextRequest } from './text-endpoint.js';

type GatewayEnvironment = { Bindings: HttpBindings; Variables: { requestId: string } };

/** Text endpoints: path (also served under /v1) → endpoint family and client format. */
const textEndpoints: readonly { path: string; family: EndpointFamily; format: FormatName }[] = [
  { path: '/chat/completions', family: 'chat', format: 'chat' },
];

/** The HTTP surface of the gateway (interface.md §1). */
export function createGatewayApp(services: GatewayServices): Hono<GatewayEnvironment> {
  const app = new Hono<GatewayEnvironment>();
  app.use(async (context, next) => {
    context.set('requestId', newRequestId());
    await next();
  });

  for (const endpoint of textEndpoints) {
    const format = clientFormats[endpoint.format];
    if (format === undefined) continue;
    for (const path of [endpoint.path, `/v1${endpoint.path}`]) {
      app.post(path, (context) => handleTextRequest(context, services, endpoint.family, format));
      app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'POST'));
    }
  }
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/models`, (context) => handleListModels(context, services));
    app.get(`${prefix}/models/:id{.+}`, (context) => handleRetrieveModel(context, services));
    app.all(`${prefix}/models`, (context) => methodNotAllowed(context.get('requestId'), 'GET'));
  }
  app.get('/health', (context) => context.json({ status: 'ok' }));

  app.notFound((context) => {
    const requestId = context.get('requestId') ?? newRequestId();
    return errorResponse(new GatewayError('not_found', `Unknown path: ${context.req.method} ${context.req.path}`), requestId);
  });
  app.onError((error, context) => {
    const requestId = context.get('requestId') ?? newRequestId();
    services.logger.error({ requestId, err: error }, 'unhandled error');
    return errorResponse(error, requestId);
  });
  return app;
}

function methodNotAllowed(requestId: string, allowed: string): Response {
  const response = errorResponse(new GatewayError('method_not_allowed', `Method not allowed: use ${allowed}.`), requestId);
  response.headers.set('allow', allowed);
  return response;
}
