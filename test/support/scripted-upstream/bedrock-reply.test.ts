import { EventStreamCodec } from '@smithy/eventstream-codec';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBedrockSecret } from '../fake-bedrock/fake-bedrock.js';
import { sse } from '../sse.js';
import { anthropicStreamAsEventStream, bedrockReply, converseEventStream, eventStreamContentType, json, startScriptedUpstream, type ScriptedUpstream } from './index.js';

/**
 * The fake Bedrock on the scripted upstream, called as an AWS SDK calls Bedrock (signed by the SDK's
 * own SigV4 signer) and read with the SDK's own event-stream codec: a call it takes must be one AWS
 * would take, and its frames must be ones an AWS client reads.
 */
const region = 'us-east-1';
const claudePath = '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream';
const events = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
  { type: 'message_stop' },
];
let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
});
afterAll(async () => {
  await upstream.close();
});

async function signedCall(path: string, body: string, secretAccessKey = fakeBedrockSecret.secretAccessKey): Promise<Response> {
  const url = new URL(path, upstream.url);
  const signer = new SignatureV4({ service: 'bedrock', region, sha256: Hash.bind(null, 'sha256'), credentials: { accessKeyId: fakeBedrockSecret.accessKeyId, secretAccessKey } });
  const signed = await signer.sign({ method: 'POST', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, headers: { host: url.host, 'content-type': 'application/json' }, body });
  return fetch(url, { method: 'POST', headers: signed.headers, body });
}

/** Each frame's event type and JSON payload, decoded by the AWS SDK's codec. */
function decodeFrames(bytes: Uint8Array): { type: string; payload: Record<string, unknown> }[] {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frames: { type: string; payload: Record<string, unknown> }[] = [];
  for (let offset = 0; offset < bytes.byteLength; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
    const message = codec.decode(bytes.subarray(offset, offset + length));
    frames.push({ type: String(message.headers[':event-type']?.value), payload: JSON.parse(toUtf8(message.body)) as Record<string, unknown> });
    offset += length;
  }
  return frames;
}

const claudeBody = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });

describe('the fake Bedrock on the scripted upstream', () => {
  it('re-frames an Anthropic SSE answer as InvokeModelWithResponseStream chunks, each event base64 in `bytes`', async () => {
    upstream.reply(bedrockReply({ region, secret: fakeBedrockSecret }, () => anthropicStreamAsEventStream({ pieces: [sse(events.map((data) => ({ event: data.type, data })))] })));
    const answer = await signedCall(claudePath, claudeBody);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(eventStreamContentType);
    const frames = decodeFrames(new Uint8Array(await answer.arrayBuffer()));
    expect(frames.map((frame) => frame.type)).toEqual(['chunk', 'chunk', 'chunk']);
    expect(frames.map((frame) => JSON.parse(Buffer.from(String(frame.payload.bytes), 'base64').toString('utf8')) as unknown)).toEqual(events);
  });

  it('sends a Converse recording as ConverseStream frames named by their events', async () => {
    upstream.reply(bedrockReply({ region, secret: fakeBedrockSecret }, () => converseEventStream(['{"messageStart":{"role":"assistant"}}', '{"messageStop":{"stopReason":"end_turn"}}'])));
    const answer = await signedCall('/model/amazon.nova-pro-v1%3A0/converse-stream', JSON.stringify({ messages: [] }));
    const frames = decodeFrames(new Uint8Array(await answer.arrayBuffer()));
    expect(frames.map((frame) => [frame.type, frame.payload.role ?? frame.payload.stopReason])).toEqual([['messageStart', 'assistant'], ['messageStop', 'end_turn']]);
  });

  it('refuses a call signed with another secret, an unsigned one, and a Claude body that names its model, in Bedrock\'s shape', async () => {
    upstream.reply(bedrockReply({ region, secret: fakeBedrockSecret }, () => json({ ok: true })));
    const wronglySigned = await signedCall(claudePath, claudeBody, 'not-the-secret');
    expect([wronglySigned.status, wronglySigned.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'InvalidSignatureException']);
    const unsigned = await fetch(`${upstream.url}${claudePath}`, { method: 'POST', body: claudeBody });
    expect([unsigned.status, unsigned.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'MissingAuthenticationTokenException']);
    const withModel = await signedCall(claudePath, JSON.stringify({ ...JSON.parse(claudeBody), model: 'claude' }));
    expect(withModel.status).toBe(400);
    expect(await withModel.json()).toEqual({ message: expect.stringContaining('extraneous key [model]') });
  });
});
