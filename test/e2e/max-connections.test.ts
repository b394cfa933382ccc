import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * `server.max_connections` caps the client connections a gateway holds open at once: a client
 * opening one connection after another (each costs a file descriptor and memory whether or not it
 * ever sends a request) cannot exhaust the process. Beyond the cap a new connection is closed at
 * once, without an answer; the connections already held are served, and a connection that closes
 * makes room for the next. Driven with raw sockets, as such a client would.
 */

const cap = 3;
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), server: { max_connections: cap, keep_alive_timeout_ms: 30_000 }, metrics: { public: true } });
});
afterAll(async () => {
  await gateway.close();
});

/** A raw TCP connection to the gateway, with everything it has received so far. */
interface RawConnection {
  readonly socket: Socket;
  received(): string;
  /** Resolves when the gateway (or the network) has closed it. */
  readonly closed: Promise<void>;
}

async function open(): Promise<RawConnection> {
  const socket = connect(gateway.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** Sends a keep-alive `GET /health` and waits for its whole answer; undefined if the connection closes first. */
async function health(connection: RawConnection, timeoutMs = 3_000): Promise<string | undefined> {
  const before = connection.received().length;
  connection.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${gateway.port}\r\nConnection: keep-alive\r\n\r\n`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = connection.received().slice(before);
    if (answer.endsWith('{"status":"ok"}')) return answer;
    if (connection.socket.destroyed || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

/** A GET on a connection of its own: the body of a 200, or undefined when refused or failed. */
function scrape(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: 2_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(response.statusCode === 200 ? body : undefined));
      response.on('error', () => resolve(undefined));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

describe('server.max_connections', () => {
  it('closes a connection beyond the cap at once, without an answer, while those held are served', async () => {
    const held = [];
    for (let index = 0; index < cap; index++) {
      const connection = await open();
      expect(await health(connection)).toMatch(/^HTTP\/1\.1 200 /);
      held.push(connection);
    }

    const extra = await open();
    extra.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${gateway.port}\r\n\r\n`);
    expect(await within(extra.closed, 1_000)).toBe(true);
    expect(extra.received()).toBe('');
    expect(gateway.logs()).toContain('connections refused: server.max_connections reached');

    for (const connection of held) expect(await health(connection)).toMatch(/^HTTP\/1\.1 200 /);

    // One held connection goes away: the next new one is served.
    held[0]!.socket.destroy();
    const deadline = Date.now() + 3_000;
    let next: RawConnection | undefined;
    while (next === undefined && Date.now() < deadline) {
      const attempt = await open();
      if ((await health(attempt, 500)) !== undefined) next = attempt;
    }
    expect(next).toBeDefined();
    for (const connection of [...held.slice(1), next!]) connection.socket.destroy();
  });

  it('counts the refused connections in /metrics', async () => {
    // Scraped over a connection of its own once the ones above are gone: until the gateway has seen
    // them close, a new connection may still be refused, so a refused scrape is tried again. (Node
    // 20's built-in fetch waits out its whole time-out on a connection closed as it opens, so the
    // scrape uses node:http, which fails at once.)
    const deadline = Date.now() + 3_000;
    let text = '';
    while (Date.now() < deadline) {
      const scraped = await scrape(`${gateway.url}/metrics`);
      if (scraped !== undefined) {
        text = scraped;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const line = text.split('\n').find((candidate) => candidate.startsWith('switchyard_connections_refused_total '));
    expect(Number(line?.split(' ')[1])).toBeGreaterThanOrEqual(1);
  });

  it('caps connections by default: the 1025th is closed at once', async () => {
    const plain = await startTestGateway(defaultConfig({}));
    const connections: Socket[] = [];
    try {
      const request = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${plain.port}\r\nConnection: keep-alive\r\n\r\n`;
      // Each held connection has had an answer, so the gateway has counted it before the next step.
      const answered = (socket: Socket) => new Promise<boolean>((resolve) => {
        socket.once('data', () => resolve(true));
        socket.once('close', () => resolve(false));
        socket.on('error', () => undefined);
        socket.write(request);
      });
      for (let batch = 0; batch < 1024 / 128; batch++) {
        const opened = Array.from({ length: 128 }, () => connect(plain.port, '127.0.0.1'));
        connections.push(...opened);
        expect(await Promise.all(opened.map(answered))).toEqual(opened.map(() => true));
      }
      const extra = connect(plain.port, '127.0.0.1');
      connections.push(extra);
      expect(await answered(extra)).toBe(false);
    } finally {
      for (const socket of connections) socket.destroy();
      await plain.close();
    }
  });

  it('has a default cap, and takes a positive whole number', () => {
    expect(configSchema.parse({}).server.max_connections).toBe(1024);
    expect(configSchema.parse({ server: { max_connections: 50 } }).server.max_connections).toBe(50);
    for (const bad of [0, -1, 1.5, 'many']) expect(configSchema.safeParse({ server: { max_connections: bad } }).success, String(bad)).toBe(false);
  });
});
