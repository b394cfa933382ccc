import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { retrieveWhenStored } from '../support/retrieve-when-stored.js';

let gateway: TestGateway;
let anthropic: ScriptedUpstream;
let client: OpenAI;

beforeAll(async () => {
  anthropic = await startScriptedUpstream();
  gateway = await startTestGateway({
    providers: {
      sim: { type: 'openai', base_url: 'builtin:sim' },
      'gemini-sim': { type: 'gemini', base_url: 'builtin:sim' },
      anthropic: { type: 'anthropic', base_url: anthropic.url, api_key: 'upstream-key' },
    },
    models: [
      { id: 'sim-gpt', routes: [{ provider: 'sim', model: 'sim-gpt' }] },
      { id: 'sim-gemini', routes: [{ provider: 'gemini-sim', model: 'sim-gemini' }] },
      { id: 'claude', routes: [{ provider: 'anthropic', model: 'claude-upstream' }] },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await anthropic.close();
});

describe('stored responses', () => {
  it('keeps a response made with store: true, streamed or not, for GET /v1/responses/{id}', async () => {
    const created = await client.responses.create({ model: 'sim-gpt', input: 'remember the number 42', store: true });
    const retrieved = await retrieveWhenStored(client, created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.output_text).toContain('remember the number 42');

    const streamed = await client.responses.stream({ model: 'sim-gemini', input: 'streamed and stored', store: true }).finalResponse();
    const retrievedStream = await retrieveWhenStored(client, streamed.id);
    expect(retrievedStream.output_text).toContain('streamed and stored');
  });

  it('continues a stored conversation with previous_response_id on another upstream', async () => {
    const first = await client.responses.create({ model: 'sim-gpt', input: 'my name is Ada', store: true, instructions: 'be brief' });
    await retrieveWhenStored(client, first.id);
    anthropic.reply({ body: readFixture('anthropic/messages/anthropic-text.json') });
    const second = await client.responses.create({ model: 'claude', input: 'what is my name?', previous_response_id: first.id });
    expect(second.output_text).toContain("I'm doing well");
    const sent = JSON.parse(anthropic.requests.at(-1)!.body) as { system?: unknown; messages: { role: string; content: unknown }[] };
    const turns = sent.messages.map((message) => [message.role, JSON.stringify(message.content)]);
    expect(turns).toHaveLength(3);
    expect(turns[0]).toEqual(['user', expect.stringContaining('my name is Ada')]);
    expect(turns[1]).toEqual(['assistant', expect.stringContaining('You said: my name is Ada')]);
    expect(turns[2]).toEqual(['user', expect.stringContaining('what is my name?')]);
    // Instructions belong to one call; the Responses API does not carry them over either.
    expect(JSON.stringify(sent.system ?? '')).not.toContain('be brief');
  });

  it('keeps nothing with store: false, and refuses an unknown previous_response_id', async () => {
    const unstored = await client.responses.create({ model: 'sim-gpt', input: 'forget me', store: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const missing = await client.responses.retrieve(unstored.id).catch((error: unknown) => error);
    expect((missing as InstanceType<typeof OpenAI.APIError>).status).toBe(404);

    const unknown = await client.responses.create({ model: 'sim-gpt', input: 'x', previous_response_id: 'resp_nope' }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError);
    expect((unknown as InstanceType<typeof OpenAI.APIError>).code).toBe('previous_response_not_found');
    expect((unknown as InstanceType<typeof OpenAI.APIError>).param).toBe('previous_response_id');
  });

  it('deletes a stored response', async () => {
    const created = await client.responses.create({ model: 'sim-gpt', input: 'short-lived', store: true });
    await retrieveWhenStored(client, created.id);
    await client.responses.delete(created.id);
    const gone = await client.responses.retrieve(created.id).catch((error: unknown) => error);
    expect((gone as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
  });
});
