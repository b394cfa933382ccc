/** Why the gateway should not be sent traffic now. */
export type NotReadyReason = 'shutting_down' | 'database_unreachable';

/**
 * Whether this instance should receive traffic (`GET /ready`): not once its shutdown has begun
 * (so a load balancer drains it before connections close), nor while its database does not answer.
 */
export class Readiness {
  private shuttingDown = false;

  constructor(private readonly pingDatabase: () => Promise<void>) {}

  /** Called first thing in a shutdown; from then on every check answers `shutting_down`. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /** Undefined when ready, else the reason. */
  async check(): Promise<NotReadyReason | undefined> {
    if (this.shuttingDown) return 'shutting_down';
    try {
      await this.pingDatabase();
    } catch {
      return this.shuttingDown ? 'shutting_down' : 'database_unreachable';
    }
    return this.shuttingDown ? 'shutting_down' : undefined;
  }
}
