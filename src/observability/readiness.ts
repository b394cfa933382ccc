/** Why the gateway should not be sent traffic now. */
export type NotReadyReason = 'shutting_down' | 'database_unreachable';

/**
 * Whether this instance should receive traffic (`GET /ready`): not once its shutdown has begun
 * (so a load balancer drains it before connections close), nor while its database does not answer.
 */
export class Readiness {
  private shuttingDown = false;

  /**
   * `pingTimeoutMs` bounds the database check: a PostgreSQL server that stopped answering would
   * otherwise hold the probe open until the prober gives up, telling it nothing.
   */
  constructor(
    private readonly pingDatabase: () => Promise<void>,
    private readonly pingTimeoutMs = 2_000,
  ) {}

  /** Called first thing in a shutdown; from then on every check answers `shutting_down`. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /** Undefined when ready, else the reason. */
  async check(): Promise<NotReadyReason | undefined> {
    if (this.shuttingDown) return 'shutting_down';
    const answered = await this.databaseAnswers();
    if (this.shuttingDown) return 'shutting_down';
    return answered ? undefined : 'database_unreachable';
  }

  private async databaseAnswers(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    try {
      const ping = this.pingDatabase().then(
        () => true,
        () => false,
      );
      return await Promise.race([ping, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
