import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from './gateway-harness.js';
import { startCloudUpstreams, type MatrixUpstreamSetup } from './matrix-cloud-upstreams.js';
import { createSdkClients } from './matrix-clients.js';
import { upstreamKinds, type MatrixReply, type UpstreamKind } from './matrix-recordings.js';
import { startScriptedUpstream, type ReplyScript, type ScriptedUpstream } from './scripted-upstream/index.js';

/** A scripted upstream that also forwards a call to the provider simulator, so simulator cells are checked the same way as recorded ones. */
export interface MatrixUpstream extends ScriptedUpstream {
  /** What the next calls get; a list is consumed one reply per call (turn one, turn two, …), the last one kept. */
  serve(...replies: MatrixReply[]): void;
}

/** A scripted upstream whose replies reach the gateway as `answer` gives them (checked and framed by its platform). */
function matrixUpstream(upstream: ScriptedUpstream, simulatorUrl: string, answer: MatrixUpstreamSetup['answer']): MatrixUpstream {
  const resolved = (reply: MatrixReply): ReplyScript => answer(reply === 'simulator' ? { relayTo: simulatorUrl } : reply);
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
  const cloud = await startCloudUpstreams();
  const providers: Record<string, unknown> = {};
  const models: unknown[] = [];
  const entries = await Promise.all(
    upstreamKinds.map(async (kind) => {
      const scripted = await startScriptedUpstream();
      const setup = cloud.setupFor(kind, scripted.url);
      providers[kind] = setup.provider;
      models.push({ id: `matrix-${kind}`, routes: [{ provider: kind, model: setup.model }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } });
      return [kind, matrixUpstream(scripted, simulator.url, setup.answer)] as const;
    }),
  );
  const upstreams = Object.fromEntries(entries) as Record<UpstreamKind, MatrixUpstream>;
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
      await cloud.close();
    },
  };
}
