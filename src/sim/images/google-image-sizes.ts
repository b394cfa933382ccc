/** Pixel sizes Google's image models produce, per aspect ratio, at their 1K resolution. */

export interface PixelSize {
  readonly width: number;
  readonly height: number;
}

/** Gemini image-output models (`generationConfig.imageConfig.aspectRatio`). */
export const geminiAspectRatios: Readonly<Record<string, PixelSize>> = {
  '1:1': { width: 1024, height: 1024 },
  '2:3': { width: 832, height: 1248 },
  '3:2': { width: 1248, height: 832 },
  '3:4': { width: 864, height: 1184 },
  '4:3': { width: 1184, height: 864 },
  '4:5': { width: 896, height: 1152 },
  '5:4': { width: 1152, height: 896 },
  '9:16': { width: 768, height: 1344 },
  '16:9': { width: 1344, height: 768 },
  '21:9': { width: 1536, height: 672 },
};

/** Imagen (`parameters.aspectRatio` of `:predict`). */
export const imagenAspectRatios: Readonly<Record<string, PixelSize>> = {
  '1:1': { width: 1024, height: 1024 },
  '3:4': { width: 896, height: 1280 },
  '4:3': { width: 1280, height: 896 },
  '9:16': { width: 768, height: 1408 },
  '16:9': { width: 1408, height: 768 },
};

/** `1K` is the table itself; `2K` and `4K` double and quadruple each side. */
export const resolutionScales: Readonly<Record<string, number>> = { '1K': 1, '2K': 2, '4K': 4 };

export function scaled(size: PixelSize, scale: number): PixelSize {
  return { width: size.width * scale, height: size.height * scale };
}
