/**
 * What the gateway keeps of a failed connection to an upstream, for its logs: the error's kind and
 * code (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_CONNECT_TIMEOUT`, …), never its message or stack,
 * which name the upstream's host and address (`connect ECONNREFUSED 10.0.0.7:8000`).
 */
export interface TransportFailure {
  readonly name: string;
  readonly code?: string;
  readonly syscall?: string;
}

export function transportFailure(error: unknown): TransportFailure {
  // Node reports a failure of every address it tried together (`AggregateError`): the first tells.
  const inner = error instanceof AggregateError && error.errors.length > 0 ? (error.errors[0] as unknown) : undefined;
  const code = stringField(error, 'code') ?? stringField(inner, 'code');
  const syscall = stringField(error, 'syscall') ?? stringField(inner, 'syscall');
  return {
    name: error instanceof Error ? error.name : typeof error,
    ...(code === undefined ? {} : { code }),
    ...(syscall === undefined ? {} : { syscall }),
  };
}

function stringField(value: unknown, name: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const field = (value as Record<string, unknown>)[name];
  return typeof field === 'string' ? field : undefined;
}
