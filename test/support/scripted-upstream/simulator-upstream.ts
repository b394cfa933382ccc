import { defaultConfig } from '../../../src/config/default-config.js';
import { startSimulator } from '../../../src/sim/index.js';
import type { ReceivedRequest } from './received-request.js';
import { startScriptedUpstream, type ScriptedUpstream } from './scripted-upstream.js';

/**
 * The provider simulator behind a scripted upstream that relays every call to it: a record of what
 * reached the upstream and what was served in full that does not depend on the gateway's ledger,
 * and that outlives a gateway killed outright.
 */
export interface SimulatorUpstream extends ScriptedUpstream {
  /** The default configuration with every simulator provider reached through this upstream. */
  config(): Record<string, unknown>;
}

export async function startSimulatorUpstream(): Promise<SimulatorUpstream> {
  const simulator = await startSimulator();
  const upstream = await startScriptedUpstream({ reply: { relayTo: simulator.url } });
  return {
    ...upstream,
    config() {
      const base = defaultConfig({});
      const providers = Object.fromEntries(
        Object.entries(base.providers as Record<string, { readonly type: string }>).map(([name, provider]) => [
          name,
          { ...provider, base_url: provider.type === 'openai' ? `${upstream.url}/v1` : upstream.url },
        ]),
      );
      return { ...base, providers };
    },
    async close() {
      await upstream.close();
      await simulator.close();
    },
  };
}

/** A generation call (text or image), as opposed to a model list, a poll or a download. */
export function isGenerationCall(request: ReceivedRequest): boolean {
  return (
    request.method === 'POST' &&
    (/\/(chat\/completions|responses|messages|images\/generations)$/.test(request.path) || request.path.includes(':streamGenerateContent') || request.path.includes(':generateContent'))
  );
}

/** Waits until `upstream` has received `count` generation calls in all. */
export async function untilGenerationCalls(upstream: ScriptedUpstream, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (upstream.calls(isGenerationCall) < count) {
    if (Date.now() > deadline) throw new Error(`the upstream received ${upstream.calls(isGenerationCall)} of ${count} calls`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
