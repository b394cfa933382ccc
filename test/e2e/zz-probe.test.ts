import { it, expect } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway } from '../support/gateway-harness.js';
it('probe', async () => {
  const gateway = await startTestGateway(defaultConfig({}));
  const depth = 200000;
  const body = `{"model":"sim-gpt","messages":[{"role":"user","content":"hi"}],"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  const r2 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"model":"sim-claude","messages":[{"role":"user","content":"hi"}],"metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}` });
  const r3 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': '', authorization: 'Bearer x' }, body: '\uFEFF{"model":"sim-gpt","messages":[{"role":"user","content":"hi"}]}' });
  const r4 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"sim-gpt","messages":[{"role":"user","content":"hi"}], "stream": true}' });
  const r4t = await r4.text();
  const r5 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"sim-gpt","messages":[{"role":"user"}]}' });
  const r6 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'OPTIONS' });
  const r7 = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'HEAD' });
  expect({ s: response.status, t: text.slice(0, 300), s2: r2.status, t2: (await r2.text()).slice(0,300), s3: r3.status, t3: (await r3.text()).slice(0, 300), s4: r4.status, t4: r4t.slice(-200), s5: r5.status, t5: await r5.text(), s6: r6.status, s7: r7.status, h7: [...r7.headers] }).toEqual({});
  await gateway.close();
});
