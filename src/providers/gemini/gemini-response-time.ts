/** Unix seconds for a response: Vertex's `createTime` when given, else now (Gemini sends none). */
export function responseCreatedSeconds(createTime: string | null | undefined): number {
  const parsed = createTime ? Date.parse(createTime) : Number.NaN;
  return Math.floor((Number.isNaN(parsed) ? Date.now() : parsed) / 1000);
}
