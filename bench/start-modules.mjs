// Which modules a start on the defaults loads before it answers its first chat call, grouped by
// package (dist/<folder> for the gateway's own): files, bytes, and what importing the package alone
// costs a fresh `node` (median of 3, CPU-heavy on a shared machine, so read it as an order).
//   node bench/start-modules.mjs                      # this checkout's build
//   GATEWAY_CLI=/other/bin/switchyard.js node bench/start-modules.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureOneStart } from './lib/start-memory.mjs';
import { median } from './lib/statistics.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(benchDir, '..');
const cli = process.env.GATEWAY_CLI ?? path.join(root, 'bin', 'switchyard.js');
const recorder = path.join(root, 'test', 'support', 'record-loaded-modules.mjs');
const recordFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-modules-')), 'loaded.txt');

await measureOneStart({ cli, nodeArgs: ['--import', recorder], env: { RECORD_LOADED_MODULES: recordFile }, idleMs: 0 });
const files = new Set(fs.readFileSync(recordFile, 'utf8').split('\n').filter((line) => line.startsWith('file://') || line.startsWith('/')));
const groups = new Map();
for (const file of files) {
  const filePath = file.startsWith('file://') ? fileURLToPath(file) : file;
  if (filePath === recorder || filePath.endsWith('record-loaded-modules-hooks.mjs')) continue;
  const folder = /\/dist\/([^/]+)/.exec(filePath)?.[1];
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(filePath)?.[1] ?? (folder === undefined ? path.relative(root, filePath) : `dist/${folder}`);
  const group = groups.get(name) ?? { files: 0, bytes: 0 };
  group.files += 1;
  group.bytes += fs.existsSync(filePath) ? fs.statSync(filePath).size : 0;
  groups.set(name, group);
}

/** ms to import `name` in a fresh node, beside that node's own start. */
function importMs(name) {
  const times = [];
  for (let run = 0; run < 3; run++) {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(name)}); console.log(performance.now() - t);`], { cwd: root, encoding: 'utf8' });
    times.push(Number(result.stdout.trim()));
  }
  return median(times);
}

const rows = [...groups].sort((a, b) => b[1].files - a[1].files);
console.log('| package | files | KiB | import alone, ms |\n|---|---:|---:|---:|');
for (const [name, group] of rows.slice(0, Number(process.env.TOP ?? '15'))) {
  const alone = name.startsWith('dist/') ? '' : importMs(name).toFixed(0);
  console.log(`| ${name} | ${group.files} | ${(group.bytes / 1024).toFixed(0)} | ${alone} |`);
}
const total = rows.reduce((sum, [, group]) => ({ files: sum.files + group.files, bytes: sum.bytes + group.bytes }), { files: 0, bytes: 0 });
console.log(`| **all** | **${total.files}** | **${(total.bytes / 1024).toFixed(0)}** | |`);
