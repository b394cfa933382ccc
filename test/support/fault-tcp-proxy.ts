/**
 * A TCP proxy in front of one server (the test's PostgreSQL, Redis or S3 server) that a test can
 * break and mend: refuse connections as a stopped server does, hold them silent as a hung one
 * does, or stall the open ones mid-conversation (a server that stops answering a client it had
 * already answered). Other test files keep using the server directly, so a fault injected here disturbs only the
 * gateway pointed at the proxy.
 */
import net from 'node:net';

export type ProxyState = 'passing' | 'refusing' | 'silent' | 'stalled';

export interface FaultTcpProxy {
  /** `host:port` to give the client instead of the server's address. */
  readonly host: string;
  readonly port: number;
  readonly state: ProxyState;
  /** Ends every open connection and refuses new ones, as a stopped server does. */
  refuse(): Promise<void>;
  /** Ends every open connection; new ones are accepted but nothing passes either way (a hung server). */
  silence(): void;
  /**
   * Keeps every open connection but passes nothing more either way, holding what was sent; new
   * connections are held silent. A client sees its connection up and its commands unanswered.
   */
  stall(): void;
  /** Passes traffic again; the same port as before. Stalled connections pass what they held. */
  restore(): Promise<void>;
  /** Connections currently open through the proxy. */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startFaultTcpProxy(target: { host: string; port: number }): Promise<FaultTcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let state: ProxyState = 'passing';
  let server = net.createServer(accept);
  const port = await listen(server, 0);

  function accept(client: net.Socket): void {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (state === 'silent' || state === 'stalled') return; // held open, read and answered by no one
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  }

  function dropAll(): void {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    pairs.clear();
  }

  return {
    host: '127.0.0.1',
    port,
    get state() {
      return state;
    },
    async refuse() {
      state = 'refusing';
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    silence() {
      state = 'silent';
      dropAll();
    },
    stall() {
      state = 'stalled';
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      if (state === 'stalled') {
        for (const { client, upstream } of pairs) {
          client.pipe(upstream);
          upstream.pipe(client);
        }
      }
      if (state === 'refusing') {
        server = net.createServer(accept);
        await listen(server, port);
      }
      state = 'passing';
    },
    openConnections: () => sockets.size,
    async close() {
      dropAll();
      if (state !== 'refusing') await new Promise<void>((resolve) => server.close(() => resolve()));
      state = 'refusing';
    },
  };
}

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('the proxy has no TCP address'));
      else resolve(address.port);
    });
  });
}
