import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultTcpProxy, type FaultTcpProxy } from './fault-tcp-proxy.js';

/** An echo server: what the proxy passes comes back. */
async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return { port: address.port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Sends `text` and resolves with what came back, 'refused', 'closed' or 'silent' after 300 ms. */
function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('silent');
    }, 300);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'closed');
    });
    socket.on('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data.toString());
    });
    socket.write(text);
  });
}

describe('fault TCP proxy', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function setUp(): Promise<FaultTcpProxy> {
    const echo = await startEcho();
    const proxy = await startFaultTcpProxy({ host: '127.0.0.1', port: echo.port });
    cleanups.push(() => proxy.close(), () => echo.close());
    return proxy;
  }

  it('passes, refuses, passes again on the same port', async () => {
    const proxy = await setUp();
    expect(await roundTrip(proxy.port, 'one')).toBe('one');
    await proxy.refuse();
    expect(await roundTrip(proxy.port, 'two')).toBe('refused');
    await proxy.restore();
    expect(await roundTrip(proxy.port, 'three')).toBe('three');
  });

  it('holds connections silent, and cuts the open ones when a fault begins', async () => {
    const proxy = await setUp();
    const open = net.connect(proxy.port, '127.0.0.1');
    await new Promise((resolve) => open.once('connect', resolve));
    const closed = new Promise((resolve) => open.once('close', resolve));
    proxy.silence();
    await closed;
    expect(await roundTrip(proxy.port, 'lost')).toBe('silent');
    await proxy.restore();
    expect(await roundTrip(proxy.port, 'back')).toBe('back');
  });

  it('stalls open connections without closing them, and passes what they held once restored', async () => {
    const proxy = await setUp();
    const open = net.connect(proxy.port, '127.0.0.1');
    const received: string[] = [];
    open.on('data', (data) => received.push(data.toString()));
    await new Promise((resolve) => open.once('connect', resolve));
    open.write('before');
    await waitFor(() => received.join('') === 'before');
    proxy.stall();
    let closed = false;
    open.once('close', () => (closed = true));
    open.write('held');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.join('')).toBe('before');
    expect(closed).toBe(false);
    await proxy.restore();
    await waitFor(() => received.join('') === 'beforeheld');
    open.destroy();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
