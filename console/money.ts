/**
 * Money as the API sends it: decimal USD strings, exact. Sums are taken in integer nano-USD
 * (bigint) so a total shown here equals the ledger's to the last digit, never a float's rounding.
 */
export function usdToNano(usd: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(usd);
  if (match === null) return 0n;
  return BigInt(match[1] ?? '0') * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** "1.5" → "1.50", "0.000042" as is: at least cents, every digit the ledger holds. */
export function nanoToUsd(nano: bigint): string {
  const whole = nano / 1_000_000_000n;
  const fraction = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

export function sumUsd(values: readonly string[]): string {
  return nanoToUsd(values.reduce((total, value) => total + usdToNano(value), 0n));
}

export function showUsd(usd: string | null | undefined): string {
  return usd === null || usd === undefined ? '—' : `$${nanoToUsd(usdToNano(usd))}`;
}

/** For charts and meters only, where a float's last digits cannot be seen. */
export function usdNumber(usd: string): number {
  return Number(usd);
}
