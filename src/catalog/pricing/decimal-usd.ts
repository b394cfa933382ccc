/**
 * Exact money. Rates are integers of pico-USD (1e-12 USD) per unit — per million tokens, per
 * image, per second — so that a price with six decimals times a markup with six decimals is still
 * an integer. Costs are integers of nano-USD. No binary float ever holds money.
 */
export type PicoUsd = bigint;

const picoDecimals = 12;
const picoPerUsd = 10n ** BigInt(picoDecimals);

/** Parses a decimal USD string ("3.00", "0.075", "15") exactly; more than 12 decimals is refused. */
export function parseUsdToPico(value: string): PicoUsd {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (match === null) throw new RangeError(`"${value}" is not a decimal USD amount`);
  const fraction = match[2] ?? '';
  if (fraction.replace(/0+$/, '').length > picoDecimals) throw new RangeError(`"${value}" has more than ${picoDecimals} decimals`);
  return BigInt(match[1] as string) * picoPerUsd + BigInt(fraction.slice(0, picoDecimals).padEnd(picoDecimals, '0'));
}

/** Formats pico-USD as a decimal string with at least two decimals ("3.00", "0.075", "3.375"). */
export function formatPicoUsd(pico: PicoUsd): string {
  const whole = pico / picoPerUsd;
  const fraction = (pico % picoPerUsd).toString().padStart(picoDecimals, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** A rate scaled by a markup percentage given as a decimal string ("12.5" → × 1.125), exactly. */
export function withMarkup(rate: PicoUsd, markupPercent: string | undefined): PicoUsd {
  if (markupPercent === undefined) return rate;
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(markupPercent);
  if (match === null) throw new RangeError(`"${markupPercent}" is not a markup percentage with at most 4 decimals`);
  // (100 + p) / 100 with p in ten-thousandths of a percent: the factor has at most 6 decimals.
  const markupMillionths = BigInt(match[1] as string) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
  const product = rate * (1_000_000n + markupMillionths);
  if (product % 1_000_000n !== 0n) throw new RangeError(`the markup ${markupPercent}% makes a price finer than a pico-USD`);
  return product / 1_000_000n;
}

/** Parses a decimal USD amount into nano-USD, the unit costs and budgets are kept in; finer is refused. */
export function parseUsdToNano(value: string): bigint {
  const pico = parseUsdToPico(value);
  if (pico % 1000n !== 0n) throw new RangeError(`"${value}" is finer than a nano-USD`);
  return pico / 1000n;
}

/** Formats nano-USD (a cost or a budget) as a decimal USD string ("0.011", "3.00"). */
export function formatNanoUsd(nano: bigint): string {
  return formatPicoUsd(nano * 1000n);
}
