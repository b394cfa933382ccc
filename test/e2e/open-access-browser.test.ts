import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * A gateway in open access (no key yet) on loopback, and a real browser (Debian's chromium, driven
 * by playwright-core) visiting pages of other sites. The browser resolves `attacker.example` and
 * `rebound.example` to 127.0.0.1, so the pages are served here but the browser treats them as the
 * other sites they would be. One page submits a multipart form to `/v1/videos`, one sends a
 * `no-cors` fetch to `/v1/images/edits`; a DNS-rebinding page reaches the gateway under its own
 * name and reads the answer. None of them gets a job, an image, a ledger entry or a request
 * upstream. A page of the gateway's own origin (where the console lives) is still served.
 */
const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const title = hasChromium ? 'open access against web pages in chromium' : `open access against web pages in chromium — SKIPPED: no chromium at ${chromiumPath} (apt-get install chromium)`;

let relay: SimulatorUpstream;
let gateway: TestGateway;
let pages: Server;
let pagesPort: number;
let browser: Browser;
let page: Page;

/** The HTML an attacking site serves; `gatewayUrl` is where the victim's gateway listens. */
function attackPage(name: string, gatewayUrl: string): string {
  if (name === '/form') {
    return `<!doctype html><form id="attack" method="post" enctype="multipart/form-data" action="${gatewayUrl}/v1/videos">
      <input name="model" value="sim-video"><input name="prompt" value="paid for by a stranger">
      <input name="seconds" value="4"><input name="size" value="1280x720"></form>`;
  }
  return '<!doctype html><title>a page</title>';
}

/**
 * Serves the attacking pages. Any other path is relayed to the gateway with the browser's own
 * headers: that is what a DNS-rebinding attack amounts to once the page's name points at the
 * gateway (same origin for the browser, its `Host` the attacker's name).
 */
function servePages(gatewayUrl: string): Server {
  const target = new URL(gatewayUrl);
  return createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (!path.startsWith('/v1/')) {
      outgoing.writeHead(200, { 'content-type': 'text/html' });
      outgoing.end(attackPage(path, gatewayUrl));
      return;
    }
    const relayed = request({ host: target.hostname, port: target.port, method: incoming.method, path, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    relayed.on('error', () => outgoing.destroy());
    incoming.pipe(relayed);
  });
}

interface Tally {
  readonly entries: number;
  readonly jobs: number;
}

async function tally(): Promise<Tally> {
  await gateway.services.ledger.flush();
  const entries = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
  const jobs = (await gateway.services.storage.videoJobs.listAll({ limit: 1_000 })).jobs.length;
  return { entries, jobs };
}

describe.skipIf(!hasChromium)(title, () => {
  beforeAll(async () => {
    relay = await startSimulatorUpstream();
    gateway = await startTestGateway({ ...relay.config(), content: { dir: temporaryContentDirectory() } });
    pages = servePages(gateway.url);
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesPort = (pages.address() as AddressInfo).port;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--host-resolver-rules=MAP attacker.example 127.0.0.1, MAP rebound.example 127.0.0.1'],
    });
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise<void>((resolve) => (pages === undefined ? resolve() : pages.close(() => resolve())));
    await gateway?.close();
    await relay?.close();
  });
  beforeEach(() => {
    relay.requests.length = 0;
  });

  it('refuses a multipart form another site submits to /v1/videos: no job, no charge, nothing upstream', async () => {
    const before = await tally();
    await page.goto(`http://attacker.example:${pagesPort}/form`);
    const answered = page.waitForResponse((response) => response.url().endsWith('/v1/videos'));
    await page.evaluate(() => (document.getElementById('attack') as HTMLFormElement).submit());
    const answer = await answered;
    expect(answer.status()).toBe(403);
    expect(await answer.json()).toMatchObject({ error: { type: 'permission_error', code: 'permission_denied' } });
    expect(relay.requests).toEqual([]);
    expect(await tally()).toEqual(before);
  });

  it('refuses a no-cors fetch another site sends to /v1/images/edits: no image, no charge, nothing upstream', async () => {
    const before = await tally();
    await page.goto(`http://attacker.example:${pagesPort}/no-cors`);
    const answered = page.waitForResponse((response) => response.url().endsWith('/v1/images/edits'));
    const opaque = await page.evaluate(async (gatewayUrl) => {
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const image = await new Promise<Blob>((resolve) => canvas.toBlob((blob) => resolve(blob as Blob), 'image/png'));
      const form = new FormData();
      form.append('model', 'sim-image');
      form.append('prompt', 'paid for by a stranger');
      form.append('image', image, 'image.png');
      const response = await fetch(`${gatewayUrl}/v1/images/edits`, { method: 'POST', mode: 'no-cors', body: form });
      return response.type;
    }, gateway.url);
    // The page cannot read the answer; the attack was in having it made.
    expect(opaque).toBe('opaque');
    expect((await answered).status()).toBe(403);
    expect(relay.requests).toEqual([]);
    expect(await tally()).toEqual(before);
  });

  it('refuses a DNS-rebinding page that reaches the gateway under its own name, which could read the answer', async () => {
    const before = await tally();
    await page.goto(`http://rebound.example:${pagesPort}/rebound`);
    const seen = await page.evaluate(async () => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content: 'read me' }] }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    });
    expect(seen).toMatchObject({ status: 403, body: { error: { type: 'permission_error', code: 'permission_denied' } } });
    expect(relay.requests).toEqual([]);
    expect(await tally()).toEqual(before);
  });

  it("serves a keyless call from a page of the gateway's own origin, where its console lives", async () => {
    await page.goto(`${gateway.url}/health`);
    const seen = await page.evaluate(async () => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content: 'same origin' }] }),
      });
      return { status: response.status, body: (await response.json()) as { choices: { message: { content: string } }[] } };
    });
    expect(seen.status).toBe(200);
    expect(seen.body.choices[0]?.message.content).toContain('same origin');
    expect(relay.requests).toHaveLength(1);
  });
});
