/** Dimension limits of models that take any size within them (rather than a list of sizes). */
export interface ImageDimensionLimits {
  readonly minWidth: number;
  readonly maxWidth: number;
  readonly minHeight: number;
  readonly maxHeight: number;
  readonly multipleOf?: number;
  readonly maxPixels?: number;
  readonly minAspectRatio?: number;
  readonly maxAspectRatio?: number;
}

export type ImageResponseFormat = 'b64_json' | 'url';
export type ImageOutputFormat = 'png' | 'jpeg' | 'webp';

/** What an image model accepts: a request outside these is refused before any upstream call. */
export interface ImageRules {
  /** Allowed `size` values (`WxH`, and `auto` where the model picks); absent when `dimensions` rule. */
  readonly sizes?: readonly string[];
  readonly dimensions?: ImageDimensionLimits;
  readonly qualities: readonly string[];
  readonly maxN: number;
  readonly responseFormats: readonly ImageResponseFormat[];
  readonly defaultResponseFormat: ImageResponseFormat;
  readonly outputFormats: readonly ImageOutputFormat[];
  readonly backgrounds: readonly string[];
  readonly styles: readonly string[];
  readonly streaming: boolean;
  readonly edits: boolean;
  /** Characters. */
  readonly maxPromptLength: number;
  readonly maxInputImages: number;
  readonly maxInputImageBytes: number;
}

/** How a legacy model's parameters become the current model's. */
export interface LegacyMapping {
  readonly quality: Readonly<Record<string, string>>;
  readonly size: Readonly<Record<string, string>>;
  readonly dropped: readonly string[];
}

/** An older id a model serves: requests naming it are checked against its own rules, then mapped. */
export interface LegacyImageAlias {
  readonly id: string;
  readonly rules: ImageRules;
  readonly mapping: LegacyMapping;
}

export interface ImageModelRecord {
  readonly rules: ImageRules;
  readonly legacyAliases: readonly LegacyImageAlias[];
}
