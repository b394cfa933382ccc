// The load hook of record-loaded-modules.mjs: appends each ES module's URL as it is loaded.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, url + '\n');
  return nextLoad(url, context);
}
