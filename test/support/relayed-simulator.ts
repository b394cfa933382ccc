import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultConfig } from '../../src/config/default-config.js';
import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';

/**
 * The provider simulator behind a relay that notes every request it receives, whatever its path
 * (polls, edits and video submits included), so a test can say that nothing at all reached the
 * upstream, and see that the same relay does carry the calls that are let through.
 */
export interface RelayedSimulator {
  readonly url: string;
  /** `METHOD /path` of every request received, in order. */
  readonly received: string[];
  /** The default configuration with every simulator provider reached through this relay. */
  config(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startRelayedSimulator(): Promise<RelayedSimulator> {
  const simulator: SimulatorHandle = await startSimulator();
  const target = new URL(simulator.url);
  const received: string[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    received.push(`${incoming.method ?? ''} ${incoming.url ?? ''}`);
    const relayed = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    relayed.on('error', () => outgoing.destroy());
    outgoing.on('close', () => relayed.destroy());
    incoming.pipe(relayed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    config() {
      const base = defaultConfig({});
      const providers = Object.fromEntries(
        Object.entries(base.providers as Record<string, { readonly type: string }>).map(([name, provider]) => [
          name,
          { ...provider, base_url: provider.type === 'openai' ? `${url}/v1` : url },
        ]),
      );
      return { ...base, providers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await simulator.close();
    },
  };
}
