import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';

/**
 * A Lua script run in one round trip. The first time on a connection it goes as EVAL, which also
 * loads it, and from then on as EVALSHA, so the text travels once per connection and commands
 * keep the order they were sent in (a fire-and-forget settlement lands before the reservation sent
 * after it). A Redis that lost its scripts answers NOSCRIPT, and the call goes again as EVAL.
 * Plain commands rather than an ioredis defined command, whose handling per call cost a limited
 * call measurably more of the gateway's CPU (bench/README.md "Limits and budgets on the hot path").
 */
export class RedisScript {
  private readonly sha: string;
  /** The connections (sockets) this script has been sent on as EVAL. */
  private readonly loadedOn = new WeakSet<Socket>();

  constructor(
    private readonly name: string,
    private readonly lua: string,
    private readonly numberOfKeys: number,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  run(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new Error(`The Redis script ${this.name} takes ${this.numberOfKeys} keys, not ${keys.length}.`);
    const connection = client.stream as Socket | undefined;
    // No socket yet before the client's first connection attempt: the command fails, as a promise.
    if (connection === undefined) return this.runInFull(client, keys, args);
    writeTogetherThisTick(connection);
    if (!this.loadedOn.has(connection)) {
      this.loadedOn.add(connection);
      return this.runInFull(client, keys, args);
    }
    return client.evalsha(this.sha, this.numberOfKeys, ...keys, ...args).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      // The EVAL loads it again: the connection can go on with EVALSHA.
      return this.runInFull(client, keys, args);
    });
  }

  /** EVAL: the script's text with the call, which also loads it. */
  private runInFull(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return client.eval(this.lua, this.numberOfKeys, ...keys, ...args);
  }
}

/**
 * Holds the connection's writes until the end of this tick, so that the scripts sent in it (a
 * call's settlement and the end of its admission; the next steps of every call whose replies
 * arrived together) leave in one write: a write to a socket costs the gateway more than the
 * command it carries (bench/README.md "Limits and budgets on the hot path"). Unlike
 * ioredis's automatic pipelining, nothing waits for the replies of an earlier batch.
 */
function writeTogetherThisTick(connection: Socket): void {
  // Corked already means corked by an earlier script of this tick: ioredis itself never corks.
  if (connection.writableCorked > 0) return;
  connection.cork();
  process.nextTick(() => connection.uncork());
}
