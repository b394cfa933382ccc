import type { RawBuilder } from 'kysely';
import type { StorageDialect } from '../ports.js';

/**
 * Everything that differs between the dialects when values cross the driver boundary. The
 * stores are written once against this interface; each adapter supplies its own codec.
 */
export interface SqlValueCodec {
  readonly dialect: StorageDialect;
  writeTimestamp(value: Date): Date | string;
  writeBoolean(value: boolean): boolean | number;
  readBoolean(value: unknown): boolean;
  /** The UTC calendar day (`YYYY-MM-DD`) of a timestamp column. */
  utcDay(column: string): RawBuilder<string>;
}
