import { Hono } from 'hono';
import { GatewayError } from '../errors/gateway-error.js';
import { clientFormats } from '../formats/registry.js';
import type { ClientFormat } from '../formats/client-format.js';
import { messagesFormat } from '../formats/messages/index.js';
import { imageContentPath } from '../media/images/image-content-publisher.js';
import { consolePath, handleConsole } from '../endpoints/console/console-endpoint.js';
import { countTokensEndpoint } from '../endpoints/text/count-tokens-endpoint.js';
import { meteredResponse } from '../endpoints/metered-call/metered-response.js';
import { ImagesEndpoint } from '../endpoints/images/images-endpoint.js';
import { errorResponse } from '../http/error-response.js';
import type { GatewayServices } from '../endpoints/gateway-services.js';
import type { GatewayEnvironment } from '../http/exchange.js';
import { registerAdminRoutes } from '../endpoints/admin/admin-routes.js';
import { registerObservabilityRoutes } from '../endpoints/observability/observability-routes.js';
import { handleImageModels, handleVideoModels } from '../endpoints/discovery/media-models-endpoints.js';
import { handleListModels, handleRetrieveModel } from '../endpoints/discovery/models-endpoint.js';
import { handlePricing } from '../endpoints/discovery/pricing-endpoint.js';
import { handleImageContent } from '../endpoints/images/image-content-endpoint.js';
import { newRequestId } from '../http/request-id.js';
import { textEndpointPaths, textEndpoints } from '../endpoints/text/text-endpoints.js';
import { handleDeleteResponse, handleGetResponse } from '../endpoints/text/stored-response-endpoints.js';
import { createVideoEndpoint } from '../endpoints/videos/create-video-endpoint.js';
import { handleDeleteVideo } from '../endpoints/videos/delete-video-endpoint.js';
import { handleGetVideo, handleListVideos } from '../endpoints/videos/read-video-endpoints.js';
import { remixVideoEndpoint } from '../endpoints/videos/remix-video-endpoint.js';
import { handleVideoContent } from '../endpoints/videos/video-content-endpoint.js';


/**
 * The HTTP surface of the gateway (docs/api.md, "Paths and prefixes"), but for POSTs to the text
 * endpoints, which the request listener answers before this app sees them (request-listener.ts).
 */
export function createGatewayApp(services: GatewayServices): Hono<GatewayEnvironment> {
  const app = new Hono<GatewayEnvironment>();
  app.use(async (context, next) => {
    context.set('requestId', newRequestId());
    await next();
  });

  for (const endpoint of textEndpoints) {
    const format = clientFormats[endpoint.format];
    for (const path of textEndpointPaths(endpoint)) {
      app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'POST', format));
    }
  }
  // Pricing and media-model discovery exist only under /v1 (docs/api.md, "Paths and prefixes");
  // matched before /models/{id}.
  app.get('/v1/models/pricing', (context) => handlePricing(context, services));
  app.get('/v1/images/models', (context) => handleImageModels(context, services));
  app.get('/v1/videos/models', (context) => handleVideoModels(context, services));
  // Published images, by signed URL and without a key; GET serves HEAD too.
  app.get(`${imageContentPath}/:id`, (context) => handleImageContent(context, services));
  app.all(`${imageContentPath}/:id`, (context) => methodNotAllowed(context.get('requestId'), 'GET, HEAD'));
  app.get('/models/pricing', (context) => notFound(context.get('requestId'), context.req.method, context.req.path));
  for (const path of ['/v1/models/pricing', '/v1/images/models', '/v1/videos/models']) {
    app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'GET'));
  }
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/models`, (context) => handleListModels(context, services));
    app.get(`${prefix}/models/:id{.+}`, (context) => handleRetrieveModel(context, services));
    app.all(`${prefix}/models`, (context) => methodNotAllowed(context.get('requestId'), 'GET'));
  }
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/responses/:id`, (context) => handleGetResponse(context, services));
    app.delete(`${prefix}/responses/:id`, (context) => handleDeleteResponse(context, services));
  }
  const imageGenerations = new ImagesEndpoint(false);
  const imageEdits = new ImagesEndpoint(true);
  for (const prefix of ['', '/v1']) {
    for (const [path, endpoint] of [[`${prefix}/images/generations`, imageGenerations], [`${prefix}/images/edits`, imageEdits]] as const) {
      app.post(path, (context) => meteredResponse(context, services, endpoint));
      app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'POST'));
    }
  }
  registerVideoRoutes(app, services);
  registerAdminRoutes(app, services);
  registerObservabilityRoutes(app, services);
  // The operator console (a static app); GET serves HEAD too.
  for (const path of [consolePath, `${consolePath}/*`]) {
    app.get(path, (context) => handleConsole(context));
    app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'GET, HEAD'));
  }
  for (const path of ['/messages/count_tokens', '/v1/messages/count_tokens']) {
    app.post(path, (context) => meteredResponse(context, services, countTokensEndpoint));
    app.all(path, (context) => methodNotAllowed(context.get('requestId'), 'POST', messagesFormat));
  }

  app.notFound((context) => notFound(context.get('requestId') ?? newRequestId(), context.req.method, context.req.path));
  app.onError((error, context) => {
    const requestId = context.get('requestId') ?? newRequestId();
    services.logger.error({ requestId, err: error }, 'unhandled error');
    return errorResponse(error, requestId);
  });
  return app;
}

/**
 * Videos exist only under /v1 (docs/api.md, "Paths and prefixes"); `/v1/videos/models` is
 * registered before them.
 */
function registerVideoRoutes(app: Hono<GatewayEnvironment>, services: GatewayServices): void {
  app.post('/v1/videos', (context) => meteredResponse(context, services, createVideoEndpoint));
  app.get('/v1/videos', (context) => handleListVideos(context, services));
  app.all('/v1/videos', (context) => methodNotAllowed(context.get('requestId'), 'GET, POST'));
  app.get('/v1/videos/:id', (context) => handleGetVideo(context, services));
  app.delete('/v1/videos/:id', (context) => handleDeleteVideo(context, services));
  app.all('/v1/videos/:id', (context) => methodNotAllowed(context.get('requestId'), 'GET, DELETE'));
  app.get('/v1/videos/:id/content', (context) => handleVideoContent(context, services));
  app.all('/v1/videos/:id/content', (context) => methodNotAllowed(context.get('requestId'), 'GET, HEAD'));
  app.post('/v1/videos/:id/remix', (context) => meteredResponse(context, services, remixVideoEndpoint));
  app.all('/v1/videos/:id/remix', (context) => methodNotAllowed(context.get('requestId'), 'POST'));
}

/** Paths of the Messages family answer in the Anthropic error shape (docs/api.md, "Paths and prefixes"). */
function isMessagesPath(path: string): boolean {
  return path.startsWith('/messages') || path.startsWith('/v1/messages');
}

function notFound(requestId: string, method: string, path: string): Response {
  const error = new GatewayError('not_found', `Unknown path: ${method} ${path}`);
  return errorResponse(error, requestId, isMessagesPath(path) ? messagesFormat : undefined);
}

function methodNotAllowed(requestId: string, allowed: string, format?: ClientFormat): Response {
  const response = errorResponse(new GatewayError('method_not_allowed', `Method not allowed: use ${allowed}.`), requestId, format);
  response.headers.set('allow', allowed);
  return response;
}
