/**
 * A `data:` URL split into media type and base64 payload (undefined when it is not one). Both
 * OpenAI client formats carry images and files this way.
 */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (match === null) return undefined;
  const mediaType = match[1] === undefined || match[1] === '' ? 'application/octet-stream' : match[1];
  const parameters = match[2] ?? '';
  const payload = match[3] ?? '';
  if (/;base64(;|$)/i.test(parameters)) return { mediaType, data: payload };
  // Percent-encoded data URLs are legal too; the IR carries base64 only.
  return { mediaType, data: Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64') };
}
