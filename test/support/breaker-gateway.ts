import OpenAI, { type APIError } from 'openai';
import { insertKey } from './admin-keys.js';
import { type AnswerReply, type ScriptedUpstream, startScriptedUpstream } from './scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from './gateway-harness.js';

/** A route's state as `/admin/routes` shows it. */
export interface RouteStanding {
  readonly state: string;
  readonly retry_at: string | null;
}

/** A gateway whose models each have their own route (and breaker) to one scripted upstream, and two keys to call it with. */
export interface BreakerGateway {
  readonly upstream: ScriptedUpstream;
  readonly gateway: TestGateway;
  readonly attacker: OpenAI;
  readonly bystander: OpenAI;
  route(model: string): Promise<RouteStanding>;
  close(): Promise<void>;
}

export async function startBreakerGateway(options: {
  readonly replyTo: (body: string) => AnswerReply;
  readonly models: readonly string[];
  readonly routing: Record<string, unknown>;
  readonly server?: Record<string, unknown>;
}): Promise<BreakerGateway> {
  const upstream = await startScriptedUpstream();
  upstream.reply((request) => options.replyTo(request.body));
  const gateway = await startTestGateway({
    ...(options.server === undefined ? {} : { server: options.server }),
    routing: options.routing,
    providers: { shared: { type: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'upstream-key' } },
    // Each model calls its own upstream model, so each has its own breaker.
    models: options.models.map((id) => ({ id, routes: [{ provider: 'shared', model: `upstream-${id}` }] })),
  });
  const adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
  const client = async (name: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: (await insertKey(gateway.services.storage, name, false)).secret, maxRetries: 0 });
  const attacker = await client('attacker');
  const bystander = await client('bystander');
  return {
    upstream,
    gateway,
    attacker,
    bystander,
    async route(model) {
      const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
      const body = (await response.json()) as { data: { model: string; routes: RouteStanding[] }[] };
      const found = body.data.find((entry) => entry.model === model)?.routes[0];
      if (found === undefined) throw new Error(`no route for ${model}`);
      return found;
    },
    async close() {
      await gateway.close();
      await upstream.close();
    },
  };
}

export const ask = (client: OpenAI, model: string, content = 'hi') => client.chat.completions.create({ model, messages: [{ role: 'user', content }] });

/** The error a call ends with, or undefined when it was answered. */
export const failure = (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => error as APIError);
