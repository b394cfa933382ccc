import { call } from '../api.js';

/**
 * Downloads an admin API answer as a file. A plain link cannot carry the Authorization header, so
 * the file is fetched with it and handed to the browser as a blob.
 */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const blob = await (await call(path)).blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
