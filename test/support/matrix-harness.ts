import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from './gateway-harness.js';
import { createSdkClients } from './matrix-clients.js';
import { upstreamKinds, type MatrixReply, type UpstreamKind } from './matrix-recordings.js';
import { startScriptedUpstream, type Reply, type ScriptedUpstream } from './scripted-upstream/index.js';

/** A scripted upstream that also forwards a call to the provider simulator, so simulator cells are checked the same way as recorded ones. */
export interface MatrixUpstream extends ScriptedUpstream {
  /** What the next calls get; a list is consumed one reply per call (turn one, turn two, …), the last one kept. */
  serve(...replies: MatrixReply[]): void;
}

async function startMatrixUpstream(simulatorUrl: string): Promise<MatrixUpstream> {
  const upstream = await startScriptedUpstream();
  const resolved = (reply: MatrixReply): Reply => (reply === 'simulator' ? { relayTo: simulatorUrl } : reply);
  return {
    ...upstream,
    serve(...replies) {
      const last = replies.at(-1);
      upstream.script(...replies.slice(0, -1).map(resolved));
      if (last !== undefined) upstream.reply(resolved(last));
    },
  };
}

export interface MatrixHarness {
  readonly gateway: TestGateway;
  readonly upstreams: Readonly<Record<UpstreamKind, MatrixUpstream>>;
  readonly clients: ReturnType<typeof createSdkClients>;
  /** The public model routed to one upstream kind. */
  modelFor(kind: UpstreamKind): string;
  ledgerEntry(requestId: string): Promise<LedgerEntry>;
  close(): Promise<void>;
}

/**
 * A gateway with one model per upstream kind, each upstream a matrix upstream that replays
 * recordings or forwards to one shared simulator (the same simulator `builtin:sim` starts, behind
 * a recorder so its bytes can be decoded for the expectations).
 */
export async function startMatrixHarness(): Promise<MatrixHarness> {
  const simulator: SimulatorHandle = await startSimulator({ port: 0 });
  const entries = await Promise.all(upstreamKinds.map(async (kind) => [kind, await startMatrixUpstream(simulator.url)] as const));
  const upstreams = Object.fromEntries(entries) as Record<UpstreamKind, MatrixUpstream>;
  const providers: Record<string, unknown> = {};
  const models: unknown[] = [];
  for (const kind of upstreamKinds) {
    const openAiType = kind === 'openai' || kind === 'openai-compatible';
    // Azure on its v1 API: OpenAI's paths below /openai/v1, which the simulator also serves.
    const baseUrl = kind === 'azure' ? `${upstreams[kind].url}/openai/v1` : openAiType ? `${upstreams[kind].url}/v1` : upstreams[kind].url;
    providers[kind] = { type: kind, base_url: baseUrl, api_key: `upstream-secret-${kind}` };
    models.push({
      id: `matrix-${kind}`,
      routes: [{ provider: kind, model: `upstream-${kind}` }],
      price: { input_per_mtok: '1.00', output_per_mtok: '2.00' },
    });
  }
  // One attempt per route: a failing cell should fail once, not be retried into a different exchange.
  const gateway = await startTestGateway({ providers, models, routing: { attempts_per_route: 1 } });
  const clients = createSdkClients(gateway.url);
  return {
    gateway,
    upstreams,
    clients,
    modelFor: (kind) => `matrix-${kind}`,
    async ledgerEntry(requestId) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        await gateway.services.ledger.flush();
        const found = (await gateway.services.storage.ledger.list({ limit: 1_000 })).find((entry) => entry.requestId === requestId);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      await gateway.close();
      await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
      await simulator.close();
    },
  };
}
