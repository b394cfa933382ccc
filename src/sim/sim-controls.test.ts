import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './index.js';
import { openAiSimulatorClient, parseSse, postJson, sseJson, useSimulator } from './sim.test-support.js';

const sim = useSimulator();
let client: OpenAI;

beforeAll(() => {
  client = openAiSimulatorClient(sim);
});

const chatBody = (content: string, stream = false) => ({ model: 'gpt-sim', stream, messages: [{ role: 'user', content }] });

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('simulator: directives and header controls', () => {
  it('fails with the requested status in the OpenAI error shape', async () => {
    const failure = await client.chat.completions.create(chatBody('[error:503]') as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    const response = await postJson(`${sim.url}/v1/responses`, { model: 'gpt-sim', input: 'slow down [error:429]', stream: true });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded', param: null } });
  });

  it('waits [delay:MS] before the first byte', async () => {
    const started = Date.now();
    const response = await postJson(`${sim.url}/v1/chat/completions`, chatBody('late [delay:300]'));
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(body.choices[0]?.message.content).toBe('You said: late');
  });

  it('spaces stream chunks [pace:MS] apart', async () => {
    const started = Date.now();
    const response = await postJson(`${sim.url}/v1/messages`, {
      model: 'claude-sim',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'slow [pace:40]' }],
    });
    const arrivals: number[] = [];
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      arrivals.push(Date.now());
      text += decoder.decode(chunk, { stream: true });
    }
    const events = parseSse(text);
    expect(arrivals.length).toBeGreaterThan(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40 * (events.length - 1) - 20);
  });

  it('answers [words:N] with N deterministic words and counts them', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-sim', messages: [{ role: 'user', content: '[words:50]' }] });
    const words = completion.choices[0]?.message.content?.split(' ') ?? [];
    expect(words).toHaveLength(50);
    expect(words.slice(0, 3)).toEqual(['alpha', 'hotel', 'oscar']);
    expect(completion.usage?.completion_tokens).toBe(50);
  });

  it('sets finish_reason length for [length]', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-sim', messages: [{ role: 'user', content: 'x [length]' }] });
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it('lets headers override directives', async () => {
    const fromHeader = await postJson(`${sim.url}/v1/chat/completions`, chatBody('plain prompt'), { 'x-sim-error-status': '502' });
    expect(fromHeader.status).toBe(502);
    const overridden = await postJson(`${sim.url}/v1/chat/completions`, chatBody('[error:500]'), { 'x-sim-error-status': '418' });
    expect(overridden.status).toBe(418);

    const started = Date.now();
    const delayed = await postJson(`${sim.url}/v1/chat/completions`, chatBody('[delay:0]'), { 'x-sim-delay-ms': '200' });
    await delayed.text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);

    const pacedStart = Date.now();
    const paced = await postJson(`${sim.url}/v1/chat/completions`, chatBody('a b c', true), { 'x-sim-pace-ms': '30' });
    const chunks = sseJson(await paced.text());
    expect(Date.now() - pacedStart).toBeGreaterThanOrEqual(30 * chunks.length - 20);
  });

  it('returns 404 in the OpenAI error shape for unknown paths', async () => {
    const response = await fetch(`${sim.url}/v2/unknown`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: null } });
  });

  it('returns 400 in each endpoint format for malformed JSON', async () => {
    const send = (path: string) =>
      fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":' });
    const chat = await send('/v1/chat/completions');
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const messages = await send('/v1/messages');
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const gemini = await send('/v1beta/models/gemini-sim:generateContent');
    expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('serves /health and a model list', async () => {
    expect(await (await fetch(`${sim.url}/health`)).json()).toEqual({ status: 'ok' });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('gpt-sim');
  });
});

describe('simulator: determinism', () => {
  it('gives byte-identical streams to the same requests in the same order', async () => {
    const requests = [
      { path: '/v1/chat/completions', body: chatBody('same bytes [think]', true) },
      { path: '/v1/responses', body: { model: 'gpt-sim', input: 'same bytes', stream: true } },
      { path: '/v1/messages', body: { model: 'claude-sim', max_tokens: 99, stream: true, messages: [{ role: 'user', content: 'same [think]' }] } },
    ];
    const transcript = async (): Promise<string[]> => {
      const other = await startSimulator({ port: 0 });
      try {
        const texts: string[] = [];
        for (const request of requests) texts.push(await (await postJson(`${other.url}${request.path}`, request.body)).text());
        return texts;
      } finally {
        await other.close();
      }
    };
    const first = await transcript();
    expect(await transcript()).toEqual(first);
    expect(first[0]).toContain('"created":1767225601');
  });
});

describe('simulator: client disconnects', () => {
  it('stops paced streams and returns the open-stream count to zero when clients abort', async () => {
    // 500 words at 20 ms would take ten seconds; the count can only reach zero in time if writing stops.
    const aborted = new AbortController();
    const responses = await fetch(`${sim.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-sim', input: '[words:500] [pace:20]', stream: true }),
      signal: aborted.signal,
    });
    const chat = await postJson(`${sim.url}/v1/chat/completions`, chatBody('[words:500] [pace:20]', true));
    const chatReader = chat.body?.getReader();
    await responses.body?.getReader().read();
    await chatReader?.read();
    expect(sim.activeStreams()).toBe(2);
    aborted.abort();
    await waitFor(() => sim.activeStreams() === 1);
    // Cancelling the body (not an abort signal) must reach the server as a closed connection too.
    await chatReader?.cancel();
    await waitFor(() => sim.activeStreams() === 0);
    expect(sim.activeStreams()).toBe(0);
  });

  it('cancels a pending delay when the client goes away', async () => {
    const abortable = new AbortController();
    const pending = fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sim-delay-ms': '60000' },
      body: JSON.stringify(chatBody('never mind', true)),
      signal: abortable.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => sim.activeStreams() === 1);
    abortable.abort();
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(() => sim.activeStreams() === 0);
  });
});
