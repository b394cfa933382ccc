import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGenerationCall, startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { type ReceivedRequest, type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * A client that names one output cap to the gateway and another to the upstream, or asks for
 * several choices, must not get more output than its budget has room for: the worst case reads
 * the cap the upstream obeys, times the choices, and a cap field the client's own API refuses is
 * refused here too, before anything is sent or charged.
 */

let gateway: TestGateway;
let simulator: SimulatorUpstream;
let choices: ScriptedUpstream;

/** $1 per million input tokens, $2 per million output tokens: 1,000 and 2,000 nano-USD a token. */
const price = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };
const inputNano = 1_000n;
const outputNano = 2_000n;
/** $0.01. */
const budget = 10_000_000n;

beforeAll(async () => {
  simulator = await startSimulatorUpstream();
  choices = await startScriptedUpstream();
  choices.reply(chatChoicesReply);
  gateway = await startTestGateway({
    providers: {
      'up-openai': { type: 'openai', base_url: `${simulator.url}/v1` },
      'up-anthropic': { type: 'anthropic', base_url: simulator.url },
      'up-choices': { type: 'openai', base_url: `${choices.url}/v1` },
    },
    models: [
      { id: 'cap-gpt', routes: [{ provider: 'up-openai', model: 'sim-gpt' }], price },
      { id: 'cap-claude', routes: [{ provider: 'up-anthropic', model: 'sim-claude' }], price },
      { id: 'choices-gpt', routes: [{ provider: 'up-choices', model: 'gpt-x' }], price },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
  await choices.close();
});

/** An OpenAI chat answer with `n` choices, each as long as the cap allows, as OpenAI bills them: every choice's tokens. */
function chatChoicesReply(request: ReceivedRequest) {
  const body = JSON.parse(request.body) as { n?: number; max_completion_tokens?: number; max_tokens?: number };
  const n = body.n ?? 1;
  const cap = body.max_completion_tokens ?? body.max_tokens ?? 16;
  const answer = {
    id: 'chatcmpl-choices',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-x',
    choices: Array.from({ length: n }, (_, index) => ({ index, message: { role: 'assistant', content: 'word '.repeat(cap) }, finish_reason: 'length' })),
    usage: { prompt_tokens: 20, completion_tokens: n * cap, total_tokens: 20 + n * cap },
  };
  return { delayMs: 400, body: JSON.stringify(answer) };
}

async function ledgerOf(keyId: string) {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

const spent = (entries: readonly { costNanoUsd: bigint }[]): bigint => entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n);

const openai = (secret: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
// A timeout of its own: the SDK otherwise refuses a non-streamed call with a cap this large before sending it.
const anthropic = (secret: string) => new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0, timeout: 60_000 });

type OpenAIError = InstanceType<typeof OpenAI.APIError>;
type AnthropicError = InstanceType<typeof Anthropic.APIError>;

/** A Messages body with a cap of another format beside its own, as a client would smuggle it. */
function messagesWithForeignCap(field: string): Anthropic.MessageCreateParamsNonStreaming {
  return { model: 'cap-claude', max_tokens: 100_000, [field]: 1, messages: [{ role: 'user', content: '[words:20000] write at length' }] } as Anthropic.MessageCreateParamsNonStreaming;
}

describe('an output cap the client format does not have', () => {
  it('on /v1/messages (max_output_tokens, max_completion_tokens) is a 400 in the Anthropic shape naming the field, with nothing sent upstream or charged', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = simulator.calls(isGenerationCall);
    for (const field of ['max_output_tokens', 'max_completion_tokens']) {
      const refused = (await anthropic(secret).messages.create(messagesWithForeignCap(field)).catch((error: unknown) => error)) as AnthropicError;
      expect(refused).toBeInstanceOf(Anthropic.APIError);
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(refused.message).toContain(field);
      expect(refused.message).toContain('max_tokens');
    }
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('on /v1/chat/completions (max_output_tokens) is a 400 in the OpenAI shape naming the field, with nothing sent upstream or charged', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = simulator.calls(isGenerationCall);
    const body = { model: 'cap-gpt', max_tokens: 100_000, max_output_tokens: 1, messages: [{ role: 'user', content: '[words:20000] go' }] } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const refused = (await openai(secret).chat.completions.create(body).catch((error: unknown) => error)) as OpenAIError;
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param: 'max_output_tokens' });
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('on /v1/responses (max_completion_tokens, max_tokens) is a 400 in the OpenAI shape naming the field, with nothing sent upstream or charged', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = simulator.calls(isGenerationCall);
    for (const field of ['max_completion_tokens', 'max_tokens']) {
      const body = { model: 'cap-gpt', max_output_tokens: 1, [field]: 100_000, input: '[words:20000] go' } as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      const refused = (await openai(secret).responses.create(body).catch((error: unknown) => error)) as OpenAIError;
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({ type: 'invalid_request_error', param: field });
      expect(refused.message).toContain('max_output_tokens');
    }
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('sent five at once on a $0.01 key spends nothing', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = simulator.calls(isGenerationCall);
    const client = anthropic(secret);
    const attempts = await Promise.all(Array.from({ length: 5 }, () => client.messages.create(messagesWithForeignCap('max_output_tokens')).then(() => 200, (error: AnthropicError) => error.status)));
    expect(attempts).toEqual([400, 400, 400, 400, 400]);
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(spent(await ledgerOf(id))).toBe(0n);
  });
});

describe('the worst case of a chat call', () => {
  it('reads the larger of max_tokens and max_completion_tokens when both are sent', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = simulator.calls(isGenerationCall);
    const body = { model: 'cap-gpt', max_completion_tokens: 1, max_tokens: 100_000, messages: [{ role: 'user' as const, content: '[words:20000] go' }] };
    const refused = (await openai(secret).chat.completions.create(body).catch((error: unknown) => error)) as OpenAIError;
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ type: 'insufficient_quota', code: 'budget_exhausted' });
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('counts every one of n choices: n = 4 at 2,000 tokens does not fit $0.01, n = 1 does and is billed as the upstream reports', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const before = choices.requests.length;
    const client = openai(secret);
    const asked = { model: 'choices-gpt', max_completion_tokens: 2_000, messages: [{ role: 'user' as const, content: 'four takes, please' }] };
    const refused = (await client.chat.completions.create({ ...asked, n: 4 }).catch((error: unknown) => error)) as OpenAIError;
    expect(refused.status).toBe(402);
    expect(refused.message).toContain('could cost up to $0.016');
    expect(choices.requests.length).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);

    const one = await client.chat.completions.create({ ...asked, n: 1 }).withResponse();
    expect(one.data.choices).toHaveLength(1);
    const [entry] = await ledgerOf(id);
    expect(entry).toMatchObject({ inputUncached: 20, output: 2_000, usageEstimated: false, costNanoUsd: 20n * inputNano + 2_000n * outputNano });
    expect(one.response.headers.get('x-request-cost-usd')).toBe('0.00402');
  });

  it('keeps concurrent calls with n = 2 on a $0.01 key within the budget', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const client = openai(secret);
    // Looked up once before the burst, so every attempt reaches admission together.
    await client.models.list();
    const asked = { model: 'choices-gpt', n: 2, max_completion_tokens: 1_000, messages: [{ role: 'user' as const, content: 'two takes, please' }] };
    const body = JSON.stringify(asked);
    // Each attempt's worst case: its bytes as input, two choices of 1,000 tokens as output.
    const worst = BigInt(Buffer.byteLength(body)) * inputNano + 2n * 1_000n * outputNano;
    const statuses = await Promise.all(Array.from({ length: 6 }, () => client.chat.completions.create(asked).then(() => 200, (error: OpenAIError) => error.status)));
    // Two worst cases fit in $0.01, a third does not: the rest are refused while two are in flight.
    expect(statuses.filter((status) => status === 200)).toHaveLength(Number(budget / worst));
    expect(statuses.filter((status) => status === 402)).toHaveLength(6 - Number(budget / worst));
    const entries = await ledgerOf(id);
    for (const entry of entries) expect(entry).toMatchObject({ inputUncached: 20, output: 2_000, usageEstimated: false, costNanoUsd: 20n * inputNano + 2_000n * outputNano });
    expect(spent(entries)).toBeLessThanOrEqual(budget);
  });
});

describe('a translated call', () => {
  it("asks the upstream for no more than the client's cap when thinking is on, so the reservation holds", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    // Chat to an Anthropic upstream: reasoning_effort 'high' is a 16,384-token thinking budget, above the cap.
    await openai(secret).chat.completions.create({ model: 'cap-claude', max_completion_tokens: 3_000, reasoning_effort: 'high', messages: [{ role: 'user', content: '[think] [words:8000] go' }] });
    const [entry] = await ledgerOf(id);
    expect(entry).toBeDefined();
    expect(entry!.usageEstimated).toBe(false);
    expect(entry!.output + entry!.reasoning).toBeLessThanOrEqual(3_000);
    expect(entry!.costNanoUsd).toBe(BigInt(entry!.inputUncached) * inputNano + BigInt(entry!.output + entry!.reasoning) * outputNano);
    expect(entry!.costNanoUsd).toBeLessThanOrEqual(budget);
  });
});

describe('a 402 for a call that sets no output cap', () => {
  it("names the format's own cap field, which lowers the reservation", async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    const client = openai(secret);
    const chat = (await client.chat.completions.create({ model: 'cap-gpt', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as OpenAIError;
    expect(chat.status).toBe(402);
    expect(chat.message).toMatch(/128,000 output tokens.*max_completion_tokens/);
    const responses = (await client.responses.create({ model: 'cap-gpt', input: 'hi' }).catch((error: unknown) => error)) as OpenAIError;
    expect(responses.status).toBe(402);
    expect(responses.message).toMatch(/128,000 output tokens.*max_output_tokens/);
  });
});
