import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';

/**
 * The provider simulator behind a relay that counts, on its own, every answer it delivered in full
 * (last byte written to the gateway): a record of what was served that does not depend on the
 * gateway's ledger, and that outlives a gateway killed outright.
 */
export class CountingUpstream {
  /** Generation answers (text, images) delivered in full, by upstream path. */
  answered = 0;
  /** Generation calls received (answered or not). */
  received = 0;
  private simulator: SimulatorHandle | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    const simulator = await startSimulator();
    this.simulator = simulator;
    const target = new URL(simulator.url);
    this.server = createServer((incoming, outgoing) => {
      if (incoming.method === 'POST' && isGeneration(incoming.url ?? '')) this.received += 1;
      const relayed = request(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      relayed.on('error', () => outgoing.destroy());
      // A gateway killed mid-call: stop the simulator's answer too.
      outgoing.on('close', () => relayed.destroy());
      outgoing.on('finish', () => {
        if (incoming.method === 'POST' && isGeneration(incoming.url ?? '')) this.answered += 1;
      });
      incoming.pipe(relayed);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
    await this.simulator?.close();
  }
}

function isGeneration(path: string): boolean {
  return /\/(chat\/completions|responses|messages|images\/generations)$/.test(path) || path.includes(':streamGenerateContent') || path.includes(':generateContent');
}

/** Waits until `upstream` has received `count` generation calls in all. */
export async function upstreamReceived(upstream: CountingUpstream, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (upstream.received < count) {
    if (Date.now() > deadline) throw new Error(`the upstream received ${upstream.received} of ${count} calls`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
