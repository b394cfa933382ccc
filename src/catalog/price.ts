import type { PriceConfig } from '../config/config-schema.js';
import type { Usage } from '../ir/usage.js';

/**
 * A text model's price in integer micro-USD per million tokens. One micro-USD per million tokens
 * is a thousandth of a nano-USD per token, so costs are summed in those units and divided once.
 */
export interface Price {
  readonly inputMicrosPerMtok: bigint;
  readonly outputMicrosPerMtok: bigint;
  readonly cacheReadMicrosPerMtok: bigint;
  readonly cacheWriteMicrosPerMtok: bigint;
  readonly reasoningMicrosPerMtok: bigint;
  readonly effectiveFrom: Date;
}

/** Parses a decimal USD string into integer micro-USD exactly ("3.1234567" is refused: sub-micro). */
export function parseDecimalMicros(value: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value);
  if (match === null) throw new RangeError(`"${value}" is not a USD amount with at most 6 decimals`);
  const whole = BigInt(match[1] as string);
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  return whole * 1_000_000n + fraction;
}

/** Formats integer micro-USD as a decimal string with at least two decimals ("3.00", "0.075"). */
export function formatMicros(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

export function parsePrice(config: PriceConfig): Price {
  const input = parseDecimalMicros(config.input_per_mtok ?? '0');
  const output = parseDecimalMicros(config.output_per_mtok ?? '0');
  return {
    inputMicrosPerMtok: input,
    outputMicrosPerMtok: output,
    // Without a separate cache or reasoning price, those tokens cost what plain input/output costs.
    cacheReadMicrosPerMtok: config.cache_read_per_mtok ? parseDecimalMicros(config.cache_read_per_mtok) : input,
    cacheWriteMicrosPerMtok: config.cache_write_per_mtok ? parseDecimalMicros(config.cache_write_per_mtok) : input,
    reasoningMicrosPerMtok: config.reasoning_per_mtok ? parseDecimalMicros(config.reasoning_per_mtok) : output,
    effectiveFrom: new Date(`${config.effective_from ?? '1970-01-01'}T00:00:00Z`),
  };
}

/** Cost of one call in nano-USD, rounded half up once at the end. Unpriced models cost 0. */
export function costNanoUsd(price: Price | undefined, usage: Usage): bigint {
  if (price === undefined) return 0n;
  const thousandthsOfNano =
    BigInt(usage.inputUncached) * price.inputMicrosPerMtok +
    BigInt(usage.cacheRead) * price.cacheReadMicrosPerMtok +
    BigInt(usage.cacheWrite) * price.cacheWriteMicrosPerMtok +
    BigInt(usage.output) * price.outputMicrosPerMtok +
    BigInt(usage.reasoning) * price.reasoningMicrosPerMtok;
  return (thousandthsOfNano + 500n) / 1000n;
}
