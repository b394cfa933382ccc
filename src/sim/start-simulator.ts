import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorState } from './handle-generation.js';
import { routeRequest } from './route-request.js';

export interface SimulatorOptions {
  /** Defaults to 127.0.0.1. */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
}

export interface SimulatorHandle {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  readonly port: number;
  /** Streams (including ones still in their `delay`) that have not yet finished or been abandoned. */
  activeStreams(): number;
  close(): Promise<void>;
}

/** Starts the provider simulator on plain node:http: no framework, so it is never the bottleneck. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  let sequence = 0;
  let openStreams = 0;
  const state: SimulatorState = {
    nextSequence: () => (sequence += 1),
    streamOpened: () => {
      openStreams += 1;
    },
    streamClosed: () => {
      openStreams -= 1;
    },
  };

  const server = createServer((request, response) => {
    routeRequest(request, response, state).catch(() => {
      // The request broke mid-read (client reset); there is nobody left to answer.
      response.destroy();
    });
  });
  // Load tests hold many keep-alive connections; keep them well past Node's 5 s default.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    activeStreams: () => openStreams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // Idle keep-alive sockets and paced streams would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
