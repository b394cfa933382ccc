// Preloaded with `node --import` into a spawned gateway: writes every module it loads, one URL or
// path a line, to the file named by RECORD_LOADED_MODULES. ES modules are seen by a load hook (on
// the loader's own thread, so it appends as it goes); CommonJS ones by `require.cache` at exit.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.RECORD_LOADED_MODULES;
if (file !== undefined) {
  register('./record-loaded-modules-hooks.mjs', { parentURL: import.meta.url, data: { file } });
  const required = createRequire(import.meta.url).cache;
  process.on('exit', () => appendFileSync(file, Object.keys(required).join('\n') + '\n'));
}
