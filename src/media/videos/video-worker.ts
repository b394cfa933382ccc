import type { VideoJobRecord } from './video-job-store.js';
import type { VideoWorkContext } from './video-work-context.js';
import { workVideoJob } from './work-video-job.js';

/**
 * The video worker every gateway process runs: on an interval it claims due jobs from the shared
 * table under a lease (so across instances each job is worked by one at a time), works at most
 * `concurrency` of them at once, and releases each when its step is done.
 */
export class VideoWorker {
  /** Steps in flight, by the id of the job each holds. */
  private readonly active = new Map<Promise<void>, string>();
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  private stopped = false;

  constructor(private readonly context: VideoWorkContext) {}

  /** The name this worker holds leases under. */
  get owner(): string {
    return this.context.owner;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.poke(), this.context.videos.claim_interval_ms);
    this.timer.unref();
    this.poke();
  }

  /** Looks for due jobs now rather than at the next tick. */
  poke(): void {
    void this.claim();
  }

  /**
   * Stops claiming and waits for the steps in flight, which release their jobs as they end. Steps
   * still running after `waitMs` (a long download) have their leases released here, so another
   * instance takes those jobs at once instead of after the lease runs out; the step's own later
   * writes are then refused, as its lease is gone.
   */
  async stop(waitMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const waited = Number.isFinite(waitMs) ? new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))) : new Promise<void>(() => {});
    await Promise.race([Promise.allSettled([...this.active.keys()]), waited]);
    clearTimeout(timer);
    const held = [...this.active.values()];
    await Promise.all(held.map((jobId) => this.release(jobId)));
  }

  private async release(jobId: string): Promise<void> {
    try {
      await this.context.store.updateLeased(jobId, this.context.owner, { leaseExpiresAt: null });
      this.context.logger.info({ jobId }, 'video job lease released at shutdown');
    } catch (error) {
      this.context.logger.warn({ jobId, err: error }, 'releasing a video job lease at shutdown failed; it expires by itself');
    }
  }

  private async claim(): Promise<void> {
    if (this.claiming || this.stopped) return;
    const free = this.context.videos.concurrency - this.active.size;
    if (free <= 0) return;
    this.claiming = true;
    try {
      const now = this.context.now();
      const leaseUntil = new Date(now.getTime() + this.context.videos.lease_seconds * 1000);
      const jobs = await this.context.store.claimDue(this.context.owner, now, leaseUntil, free);
      for (const job of jobs) this.work(job);
    } catch (error) {
      this.context.logger.warn({ err: error }, 'claiming video jobs failed; will retry');
    } finally {
      this.claiming = false;
    }
  }

  private work(job: VideoJobRecord): void {
    const step = workVideoJob(job, this.context)
      .catch((error: unknown) => this.context.logger.error({ jobId: job.id, err: error }, 'video job step failed'))
      .finally(() => {
        this.active.delete(step);
        // A slot came free: due jobs need not wait for the next tick.
        if (!this.stopped) this.poke();
      });
    this.active.set(step, job.id);
  }
}
