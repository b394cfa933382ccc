import { existsSync } from 'node:fs';
import OpenAI, { AuthenticationError } from 'openai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertKey } from '../support/admin-keys.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * The console in a real browser (Debian's chromium, driven by playwright-core): sign in, make a key
 * in the UI and call with it through the `openai` SDK, see the calls in Requests (live), the spend
 * in Overview and on the key's meter equal to the ledger, run a video job from the Playground to
 * 100 % and play it; a non-admin key is refused; no console errors and no CSP violations.
 */
const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const title = hasChromium ? 'the console in chromium' : `the console in chromium — SKIPPED: no chromium at ${chromiumPath} (apt-get install chromium)`;

let gateway: TestGateway;
let admin: { secret: string };
let plain: { secret: string };
let browser: Browser;
let page: Page;
/** Console errors, page errors and CSP violations, with the URL they came from. */
const problems: string[] = [];

interface LedgerLine {
  request_id: string;
  key_id: string | null;
  cost_usd: string;
}

function nano(usd: string): bigint {
  const [whole, fraction = ''] = usd.split('.');
  return BigInt(whole ?? '0') * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
}

/** "$1.50", "$0.000042": as the console shows money, from nano-USD. */
function shown(total: bigint): string {
  const fraction = (total % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  return `$${total / 1_000_000_000n}.${fraction}`;
}

async function ledger(): Promise<LedgerLine[]> {
  const response = await fetch(`${gateway.url}/admin/ledger?format=jsonl`, { headers: { authorization: `Bearer ${admin.secret}` } });
  const text = await response.text();
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LedgerLine);
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function openPage(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

describe.skipIf(!hasChromium)(title, () => {
  beforeAll(async () => {
    gateway = await startTestGateway({ ...defaultConfig({}), videos: quickVideoSettings, content: { dir: temporaryContentDirectory() } });
    admin = await insertKey(gateway.services.storage, 'console admin', true);
    plain = await insertKey(gateway.services.storage, 'not an admin', false);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      // Runs in the page: a violation becomes a console error, which the listener below collects.
      // eslint-disable-next-line no-console
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('opens under its Content-Security-Policy and refuses a key that is not an admin key', async () => {
    const response = await page.goto(`${gateway.url}/console`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await page.getByLabel('Admin key').fill(plain.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not an admin key');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('signs in with an admin key, kept in sessionStorage only', async () => {
    await page.getByLabel('Admin key').fill(admin.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([admin.secret]);
    expect(await page.evaluate(() => localStorage.length + document.cookie.length)).toBe(0);
  });

  let secret: string;
  let keyId: string;

  it('creates a key whose secret is shown once and works from the openai SDK; the calls appear live in Requests', async () => {
    await openPage('Keys');
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name').fill('made in the console');
    await form.getByLabel('Budget, total (USD)').fill('5.00');
    await form.getByRole('button', { name: 'Create key' }).click();
    secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sy-/);
    keyId = (await page.locator('tr', { hasText: 'made in the console' }).getAttribute('data-key-id')) ?? '';
    expect(keyId).not.toBe('');

    await openPage('Requests');
    await page.getByLabel('Live tail').check();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'one from the console test' }] });
    const stream = await client.chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'and a stream' }], stream: true });
    for await (const _chunk of stream) void _chunk;
    const entries = await eventually(ledger, (lines) => lines.length === 2, 'ledger entries');
    for (const entry of entries) {
      expect(entry.key_id).toBe(keyId);
      await page.locator(`tr[data-request-id="${entry.request_id}"]`).waitFor({ timeout: 5_000 });
    }
  });

  it('shows the spend in Overview and on the key’s meter equal to the ledger', async () => {
    const entries = await ledger();
    const total = entries.reduce((sum, entry) => sum + nano(entry.cost_usd), 0n);
    expect(total).toBeGreaterThan(0n);
    await openPage('Overview');
    await eventually(async () => page.getByTestId('overview-spend').textContent(), (text) => text === shown(total), 'overview spend');
    await openPage('Keys');
    const meter = page.getByTestId(`spend-${keyId}`);
    await eventually(async () => meter.getAttribute('data-spend-usd'), (usd) => usd !== null && nano(usd) === total, 'key spend');
    expect(await meter.textContent()).toBe(`${shown(total)} spent`);
    expect(await page.locator(`tr[data-key-id="${keyId}"] meter`).count()).toBe(1);
  });

  it('shows the same total in Usage and exports the ledger entries behind it as CSV', async () => {
    const entries = await ledger();
    const total = entries.reduce((sum, entry) => sum + nano(entry.cost_usd), 0n);
    await openPage('Usage');
    await eventually(async () => page.getByTestId('usage-total').textContent(), (text) => text === shown(total), 'usage total');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const stream = await download.createReadStream();
    let csv = '';
    for await (const chunk of stream) csv += String(chunk);
    const [header, ...rows] = csv.trim().split('\r\n');
    const costColumn = (header ?? '').split(',').indexOf('cost_usd');
    expect(rows.map((row) => row.split(',')[0])).toEqual(entries.map((entry) => entry.request_id));
    expect(rows.reduce((sum, row) => sum + nano(row.split(',')[costColumn] ?? 'x'), 0n)).toBe(total);
  });

  let videoJobId = '';

  it('runs a simulator video job from the Playground: progress moves to 100 % and the video plays', async () => {
    await openPage('Playground');
    await page.getByLabel('Model').selectOption('sim-video');
    await page.getByLabel('Prompt').fill('a lighthouse at dusk [video-ms:2000]');
    await page.getByRole('button', { name: 'Start video job' }).click();
    const job = page.getByRole('form', { name: 'Video job' }).locator('.video-job');
    const seen: number[] = [];
    await eventually(
      async () => {
        const value = await job.locator('progress').evaluate((element: HTMLProgressElement) => element.value).catch(() => -1);
        if (value >= 0 && seen.at(-1) !== value) seen.push(value);
        return job.getAttribute('data-status').catch(() => null);
      },
      (status) => status === 'completed',
      'video job',
      20_000,
    );
    expect(await job.locator('progress').evaluate((element: HTMLProgressElement) => element.value)).toBe(100);
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((left, right) => left - right));
    const played = await job.locator('video').evaluate(async (video: HTMLVideoElement) => {
      await video.play();
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { readyState: video.readyState, currentTime: video.currentTime, error: video.error?.message ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.currentTime).toBeGreaterThan(0);
    expect(await job.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    const jobId = (await job.getAttribute('data-video-id')) ?? '';
    videoJobId = jobId;
    const entry = (await eventually(ledger, (lines) => lines.some((line) => line.request_id === jobId), 'video ledger entry')).find((line) => line.request_id === jobId);
    await eventually(async () => page.getByTestId('call-cost').textContent().catch(() => null), (text) => text === `Cost: ${shown(nano(entry?.cost_usd ?? '0'))}`, 'video cost');
  });

  it('streams a chat answer in the Playground and shows its cost from the ledger entry', async () => {
    const before = (await ledger()).length;
    await page.getByLabel('Model').selectOption('sim-gpt');
    await page.getByLabel('Message').fill('hello from the playground');
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(async () => page.getByTestId('chat-answer').textContent().catch(() => ''), (text) => (text ?? '').includes('hello from the playground'), 'streamed answer');
    const entries = await eventually(ledger, (lines) => lines.length === before + 1, 'chat ledger entry');
    const entry = entries.at(-1);
    expect(entry?.key_id).not.toBeNull();
    await eventually(async () => page.getByTestId('call-cost').textContent().catch(() => null), (text) => text === `Cost: ${shown(nano(entry?.cost_usd ?? 'x'))}`, 'chat cost');
  });

  it('lists every model by modality with its prices, where they come from, and its routes, each healthy while its circuit breaker is closed', async () => {
    await openPage('Models');
    const card = page.locator('article.model', { hasText: 'sim-gpt' }).first();
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('priced by the config');
    await expect(card.getByRole('list', { name: 'Routes, in the order they are tried' }).textContent()).resolves.toMatch(/→ .*healthy/);
    await expect(page.getByRole('heading', { level: 2, name: 'Video models' }).isVisible()).resolves.toBe(true);
  });

  it('names keys by their names in Requests, in Overview’s top keys and in Usage by key', async () => {
    const entry = (await ledger()).find((line) => line.key_id === keyId);
    await openPage('Requests');
    const row = page.locator(`tr[data-request-id="${entry?.request_id ?? ''}"]`);
    await eventually(async () => row.textContent(), (text) => (text ?? '').includes('made in the console'), 'key name in Requests');
    expect(await row.textContent()).not.toContain(keyId);
    await openPage('Overview');
    const topKeys = page.locator('.panel', { has: page.getByRole('heading', { level: 2, name: 'Top keys' }) });
    await eventually(async () => topKeys.textContent(), (text) => (text ?? '').includes('made in the console'), 'key name in Top keys');
    await openPage('Usage');
    await page.getByRole('button', { name: 'By key' }).click();
    await eventually(async () => page.locator('table').first().textContent(), (text) => (text ?? '').includes('made in the console'), 'key name in Usage');
  });

  it('shows a video job its owner deleted as deleted, not completed', async () => {
    expect(videoJobId).not.toBe('');
    const deleted = await fetch(`${gateway.url}/v1/videos/${videoJobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin.secret}` } });
    expect(deleted.status).toBe(200);
    await openPage('Video jobs');
    const job = page.locator(`.video-job[data-video-id="${videoJobId}"]`);
    await eventually(async () => job.getAttribute('data-status'), (status) => status === 'deleted', 'deleted job state');
    expect(await job.locator('.badge').textContent()).toBe('deleted');
  });

  it('rotates a leaked key with no grace: the old secret is refused at once, the new one works', async () => {
    await openPage('Keys');
    await page.getByRole('button', { name: 'Rotate made in the console' }).click();
    const form = page.getByRole('form', { name: 'Rotate key' });
    await form.getByLabel('stops working now').check();
    await form.getByRole('button', { name: 'Rotate' }).click();
    const rotated = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^sy-/);
    expect(rotated).not.toBe(secret);
    const ask = (apiKey: string) =>
      new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 }).chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'after the rotation' }] });
    expect(await ask(secret).catch((error: unknown) => error)).toBeInstanceOf(AuthenticationError);
    expect((await ask(rotated)).choices[0]?.message.content).toContain('after the rotation');
  });

  it('logged no console errors and no CSP violations on any page', () => {
    // The browser reports the refused sign-in's 403 as an error of its own; nothing else may appear.
    const refusedSignIn = /status of 403 .*\/admin\/keys\?limit=1\)$/;
    expect(problems.filter((problem) => !refusedSignIn.test(problem))).toEqual([]);
  });
});
