import { videoSecondsCostNanoUsd } from '../../catalog/pricing/cost.js';
import type { PicoUsd } from '../../catalog/pricing/decimal-usd.js';

/**
 * The most a video job can cost before it is submitted (docs/api.md, "Budgets"): every second it
 * asks for at the per-second price of the variant it selected, the price fixed for the job at
 * submit. The job is charged later, when it ends, for the seconds delivered at that same price.
 */
export function worstVideoCostNanoUsd(price: { readonly perSecond: PicoUsd }, asked: { readonly seconds: number }): bigint {
  return videoSecondsCostNanoUsd(price.perSecond, asked.seconds);
}
