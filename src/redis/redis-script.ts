import type { Redis } from 'ioredis';

type ScriptCommand = (...keysAndArgs: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script run in one round trip: ioredis sends EVALSHA and falls back to EVAL once when
 * Redis does not know the script yet (a fresh or restarted Redis), so the text travels rarely.
 */
export class RedisScript {
  private readonly defined = new WeakSet<Redis>();

  constructor(
    private readonly name: string,
    private readonly lua: string,
    private readonly numberOfKeys: number,
  ) {}

  run(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new Error(`The Redis script ${this.name} takes ${this.numberOfKeys} keys, not ${keys.length}.`);
    if (!this.defined.has(client)) {
      client.defineCommand(this.name, { lua: this.lua, numberOfKeys: this.numberOfKeys });
      this.defined.add(client);
    }
    // defineCommand adds the method at run time; its type is ours to state.
    const command = (client as unknown as Record<string, ScriptCommand>)[this.name] as ScriptCommand;
    return command.call(client, ...keys, ...args);
  }
}
