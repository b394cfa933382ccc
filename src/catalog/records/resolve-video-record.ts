import type { VideoRecordConfig, VideoVariantConfig } from '../../config/model-record-schema.js';
import { parseUsdToPico } from '../pricing/decimal-usd.js';
import type { PriceSchedule } from '../pricing/model-price.js';
import { scheduleOf } from '../pricing/price-schedule.js';
import type { BuiltinVideoRecord } from './builtin-video-records.js';
import { defaultMaxInputReferenceBytes, sizeFor, type VideoModelRecord } from './video-model-record.js';

export interface ResolvedVideoRecord {
  readonly record: VideoModelRecord;
  /** The variants' own per-second prices (those without one are not sold), from the record's date. */
  readonly variantPrices: PriceSchedule | undefined;
}

/** A video model's variants: the config's over the built-in record's (the list is replaced whole). */
export function resolveVideoRecord(builtin: BuiltinVideoRecord | undefined, configured: VideoRecordConfig | undefined): ResolvedVideoRecord | undefined {
  const variants: readonly VideoVariantConfig[] | undefined = configured?.variants ?? builtin?.variants;
  if (variants === undefined) return undefined;
  const record: VideoModelRecord = {
    variants: variants.map((variant) => ({
      mode: variant.mode,
      resolution: variant.resolution,
      aspectRatio: variant.aspect_ratio,
      size: variant.size ?? sizeFor(variant.resolution, variant.aspect_ratio),
      seconds: [...variant.seconds],
    })),
    remix: configured?.remix ?? builtin?.remix ?? false,
    maxInputReferenceBytes: configured?.max_input_reference_bytes ?? builtin?.maxInputReferenceBytes ?? defaultMaxInputReferenceBytes,
  };
  const priced = variants.filter((variant) => variant.usd_per_second !== undefined);
  const effectiveFrom = configured?.variants === undefined ? (builtin?.effectiveFrom ?? '1970-01-01') : '1970-01-01';
  const variantPrices =
    priced.length === 0
      ? undefined
      : scheduleOf(
          [
            {
              effectiveFrom,
              video: {
                variants: priced.map((variant) => ({
                  mode: variant.mode,
                  resolution: variant.resolution,
                  aspectRatio: variant.aspect_ratio,
                  perSecond: parseUsdToPico(variant.usd_per_second as string),
                })),
              },
            },
          ],
          configured?.variants === undefined ? 'builtin' : 'config',
        );
  return { record, variantPrices };
}
