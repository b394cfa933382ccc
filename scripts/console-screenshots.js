#!/usr/bin/env node
/**
 * Screenshots of the console for docs/console.md: starts a gateway (in memory, on the built-in
 * simulator) with some generated traffic — keys, chat calls on three models, a stream, failures,
 * an image and a video job — then visits every page in Debian's chromium at laptop width, and the
 * Overview at phone width, writing PNGs into docs/console/. Run by `npm run screenshots`, which
 * builds first; not part of the tests.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { chromium } from 'playwright-core';
import { configSchema } from '../dist/config/config-schema.js';
import { defaultConfig } from '../dist/config/default-config.js';
import { createLogger } from '../dist/logging/logger.js';
import { startGateway } from '../dist/app/start-gateway.js';
import { apiKeyRecord } from '../dist/keys/api-key-record.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../dist/keys/api-key-secret.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'console');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
mkdirSync(out, { recursive: true });
const contentDir = mkdtempSync(path.join(tmpdir(), 'switchyard-screenshots-'));

const config = configSchema.parse({
  ...defaultConfig({}),
  database: { url: 'sqlite::memory:' },
  server: { port: 0 },
  content: { dir: contentDir },
  videos: { poll_interval_ms: 100, max_poll_interval_ms: 300, claim_interval_ms: 50, lease_seconds: 3 },
  log: { level: 'warn' },
});
const gateway = await startGateway(config, { logger: createLogger('warn') });

const adminSecret = mintApiKeySecret();
await gateway.services.storage.keys.insert(
  apiKeyRecord({ id: mintKeyId(), name: 'operator', prefix: displayPrefix(adminSecret), hash: hashApiKey(adminSecret), admin: true, createdAt: new Date() }),
);

async function admin(method, pathname, body) {
  const response = await fetch(`${gateway.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${adminSecret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

console.log('generating traffic');
const team = await admin('POST', '/admin/keys', { name: 'web team', budget_usd: '5.00', daily_budget_usd: '2.00', rpm: 600 });
const batch = await admin('POST', '/admin/keys', { name: 'nightly batch jobs with a rather long descriptive key name', scopes: { endpoints: ['chat', 'images', 'videos'], models: null } });
await admin('POST', '/admin/keys', { name: 'contractor (revoked)' }).then((key) => admin('DELETE', `/admin/keys/${key.id}`));
const clients = [team, batch].map((key) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key.key, maxRetries: 0 }));
const models = ['sim-gpt', 'sim-claude', 'sim-gemini'];
for (let index = 0; index < 24; index++) {
  const client = clients[index % 2];
  const model = models[index % 3];
  await client.chat.completions.create({ model, messages: [{ role: 'user', content: `Question ${index}: ${'tell me more '.repeat(index % 7)} [words:${20 + index * 5}]` }] });
}
const stream = await clients[0].chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'stream it' }], stream: true });
for await (const _chunk of stream) void _chunk;
for (const status of [503, 429]) {
  await clients[1].chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: `fail [error:${status}]` }] }).catch(() => undefined);
}
await clients[1].images.generate({ model: 'sim-image', prompt: 'a red bicycle', size: '1024x1024', quality: 'low' });
const video = await clients[1].videos.create({ model: 'sim-video', prompt: 'a lighthouse at dusk [video-ms:1500]', seconds: '4', size: '1280x720' });
for (let status = video.status; status === 'queued' || status === 'in_progress'; ) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  status = (await clients[1].videos.retrieve(video.id)).status;
}
await gateway.services.ledger.flush();

console.log('taking screenshots');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(`${gateway.url}/console`);
  await page.screenshot({ path: path.join(out, 'sign-in.png') });
  await page.getByLabel('Admin key').fill(adminSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const pages = [
    ['Overview', 'overview'],
    ['Keys', 'keys'],
    ['Usage', 'usage'],
    ['Models', 'models'],
    ['Requests', 'requests'],
    ['Video jobs', 'videos'],
    ['Playground', 'playground'],
  ];
  for (const [title, file] of pages) {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForLoadState('networkidle');
    if (file === 'playground') {
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByTestId('call-cost').waitFor();
    }
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `${file}.png`), fullPage: true });
    console.log(`docs/console/${file}.png`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Overview', exact: true }).click();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(out, 'overview-phone.png'), fullPage: true });
  console.log('docs/console/overview-phone.png');
} finally {
  await browser.close();
  await gateway.close();
  rmSync(contentDir, { recursive: true, force: true });
}
