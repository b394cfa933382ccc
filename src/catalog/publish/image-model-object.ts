import type { CatalogModel } from '../model-catalog.js';
import { priceAt } from '../pricing/price-schedule.js';
import type { ImageRules } from '../records/image-model-record.js';
import { publishedImagePrices } from './published-prices.js';

/** An image model's parameters as `GET /v1/images/models` publishes them. */
export function imageParameters(rules: ImageRules): Record<string, unknown> {
  return {
    ...(rules.sizes === undefined ? {} : { sizes: rules.sizes }),
    ...(rules.dimensions === undefined
      ? {}
      : {
          dimensions: {
            min_width: rules.dimensions.minWidth,
            max_width: rules.dimensions.maxWidth,
            min_height: rules.dimensions.minHeight,
            max_height: rules.dimensions.maxHeight,
            ...(rules.dimensions.multipleOf === undefined ? {} : { multiple_of: rules.dimensions.multipleOf }),
            ...(rules.dimensions.maxPixels === undefined ? {} : { max_pixels: rules.dimensions.maxPixels }),
            ...(rules.dimensions.minAspectRatio === undefined ? {} : { min_aspect_ratio: rules.dimensions.minAspectRatio }),
            ...(rules.dimensions.maxAspectRatio === undefined ? {} : { max_aspect_ratio: rules.dimensions.maxAspectRatio }),
          },
        }),
    qualities: rules.qualities,
    max_n: rules.maxN,
    response_formats: rules.responseFormats,
    default_response_format: rules.defaultResponseFormat,
    output_formats: rules.outputFormats,
    backgrounds: rules.backgrounds,
    styles: rules.styles,
    streaming: rules.streaming,
    edits: rules.edits,
    max_prompt_length: rules.maxPromptLength,
    max_input_images: rules.maxInputImages,
    max_input_image_bytes: rules.maxInputImageBytes,
  };
}

/** One `image_model` record: rules, legacy aliases with their mapping, and the price in force. */
export function imageModelObject(model: CatalogModel, now: Date): Record<string, unknown> {
  const current = priceAt(model.prices, now);
  return {
    id: model.id,
    object: 'image_model',
    owned_by: model.ownedBy,
    legacy_aliases: (model.image?.legacyAliases ?? []).map((legacy) => ({
      id: legacy.id,
      mapping: { quality: legacy.mapping.quality, size: legacy.mapping.size, dropped: legacy.mapping.dropped },
      parameters: imageParameters(legacy.rules),
    })),
    parameters: model.image === undefined ? {} : imageParameters(model.image.rules),
    pricing: current?.image === undefined ? { priced: false } : { priced: true, effective_from: current.effectiveFrom, ...publishedImagePrices(current.image) },
  };
}
