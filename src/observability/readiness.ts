/** Why the gateway should not be sent traffic now. */
export type NotReadyReason = 'shutting_down' | 'database_unreachable' | 'redis_unreachable';

/**
 * Whether this instance should receive traffic (`GET /ready`): not once its shutdown has begun
 * (so a load balancer drains it before connections close), nor while its database does not answer,
 * nor while the Redis it needs for limits or budgets does not (when one is configured).
 */
export class Readiness {
  private shuttingDown = false;

  /**
   * `pingTimeoutMs` bounds each check: a server that stopped answering would otherwise hold the
   * probe open until the prober gives up, telling it nothing. `pingRedis`, when given, is checked
   * beside the database.
   */
  constructor(
    private readonly pingDatabase: () => Promise<void>,
    private readonly pingTimeoutMs = 2_000,
    private readonly pingRedis?: () => Promise<void>,
  ) {}

  /** Called first thing in a shutdown; from then on every check answers `shutting_down`. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /** Undefined when ready, else the reason. */
  async check(): Promise<NotReadyReason | undefined> {
    if (this.shuttingDown) return 'shutting_down';
    const [database, redis] = await Promise.all([this.answers(this.pingDatabase), this.pingRedis === undefined ? true : this.answers(this.pingRedis)]);
    if (this.shuttingDown) return 'shutting_down';
    if (!database) return 'database_unreachable';
    return redis ? undefined : 'redis_unreachable';
  }

  private async answers(ping: () => Promise<void>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    try {
      const answered = ping().then(
        () => true,
        () => false,
      );
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
