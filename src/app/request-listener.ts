import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientFormats } from '../formats/registry.js';
import { errorAnswer } from '../http/gateway-answer.js';
import type { GatewayServices } from '../endpoints/gateway-services.js';
import { newRequestId } from '../http/request-id.js';
import { runMeteredCall } from '../endpoints/metered-call/metered-call.js';
import { TextEndpoint } from '../endpoints/text/text-endpoint.js';
import { textEndpointPaths, textEndpoints } from '../endpoints/text/text-endpoints.js';
import { writeAnswer } from '../http/write-answer.js';

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/**
 * The gateway's Node request listener. Generation calls (POST to a text endpoint) are answered
 * here on Node's own request and response objects: they are the hot path, and the framework's
 * Web Request and Response round trip costs on every call and every streamed chunk. Health
 * checks are answered here too. Everything else (models, stored responses, token counts, errors
 * for other methods) goes through the app, which is loaded on the first such request: a gateway
 * that only relays calls never pays the framework's memory.
 */
export function createRequestListener(services: GatewayServices): Listener {
  let framework: Promise<Listener> | undefined;
  const viaFramework: Listener = (incoming, outgoing) => {
    framework ??= loadFrameworkListener(services);
    framework.then(
      (listener) => listener(incoming, outgoing),
      (error: unknown) => {
        services.logger.error({ err: error }, 'loading the HTTP framework failed');
        writeAnswer(outgoing, errorAnswer(error, newRequestId())).catch(() => outgoing.destroy());
      },
    );
  };
  const textRoutes = new Map<string, TextEndpoint>();
  for (const endpoint of textEndpoints) {
    const format = clientFormats[endpoint.format];
    if (format === undefined) continue;
    const route = new TextEndpoint(endpoint.family, format, endpoint.prepare?.(services));
    for (const path of textEndpointPaths(endpoint)) textRoutes.set(path, route);
  }
  const drain = services.drain;
  return (incoming, outgoing) => {
    // During a shutdown every answer closes its connection, so the client's next call opens a new
    // one (to another instance) instead of landing here.
    if (drain.draining) outgoing.shouldKeepAlive = false;
    const path = pathOf(incoming.url);
    const route = incoming.method === 'POST' ? textRoutes.get(path) : undefined;
    if (route === undefined) {
      if ((incoming.method === 'GET' || incoming.method === 'HEAD') && path === '/health') answerHealthy(outgoing);
      else viaFramework(incoming, outgoing);
      return;
    }
    const requestId = newRequestId();
    void runMeteredCall(route, { incoming, outgoing, requestId }, services)
      .then((answer) => writeAnswer(outgoing, answer))
      .catch((error: unknown) => {
        services.logger.error({ requestId, err: error }, 'unhandled error');
        if (outgoing.headersSent) outgoing.destroy();
        else void writeAnswer(outgoing, errorAnswer(error, requestId, route.format));
      });
  };
}

async function loadFrameworkListener(services: GatewayServices): Promise<Listener> {
  const [{ getRequestListener }, { createGatewayApp }] = await Promise.all([import('@hono/node-server'), import('./gateway-app.js')]);
  const listener = getRequestListener(createGatewayApp(services).fetch);
  return (incoming, outgoing) => void listener(incoming, outgoing);
}

const healthyBody = JSON.stringify({ status: 'ok' });

function answerHealthy(outgoing: ServerResponse): void {
  outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': String(healthyBody.length) });
  outgoing.end(healthyBody);
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
