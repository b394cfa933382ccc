/**
 * Converse takes tool-use ids of 1–64 characters from `[a-zA-Z0-9_-]`, yet some models on Bedrock
 * mint ids outside it (`functions.read_file:1`), and ids minted by other providers may be longer.
 * An id is made to fit the same way wherever it appears, so a call and its result still match.
 */
export function converseToolUseId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'tooluse_empty' : cleaned;
}
