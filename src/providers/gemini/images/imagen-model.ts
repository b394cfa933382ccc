/** Imagen models (`imagen-4.0-generate-001`, …) answer on `:predict`; every other Google image model on `:generateContent`. */
export function isImagenModel(model: string): boolean {
  return /^(models\/)?imagen-/.test(model);
}
