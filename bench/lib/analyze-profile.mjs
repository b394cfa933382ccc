// Reads a V8 .cpuprofile (node --cpu-prof) and reports where the time went: self time per function
// and per package/file, plus inclusive time of the gateway's own functions.
//   node bench/lib/analyze-profile.mjs FILE.cpuprofile [top=30]
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Short label for where a function lives: a package, a src/ file, or a node internal. */
function placeOf(url) {
  if (!url) return '(native / V8)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/dist\/(.+)\.js$/.exec(url);
  if (own) return `src/${own[1]}.ts`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

export function analyzeProfile(profile, top = 30) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Self time per node from the samples and their time deltas.
  const selfUs = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  const total = [...selfUs.values()].reduce((sum, value) => sum + value, 0);
  const idsNamed = (name) => profile.nodes.filter((node) => node.callFrame.functionName === name).map((node) => node.id);
  const timeOf = (ids) => ids.reduce((sum, id) => sum + (selfUs.get(id) ?? 0), 0);
  const idleIds = new Set(idsNamed('(idle)'));
  const idle = timeOf([...idleIds]);
  const program = timeOf(idsNamed('(program)'));
  const collector = timeOf(idsNamed('(garbage collector)'));
  const busy = total - idle;

  const percent = (us) => `${((us / busy) * 100).toFixed(1)} %`;
  const functions = new Map();
  const places = new Map();
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    if (idleIds.has(id)) continue;
    const frame = byId.get(id).callFrame;
    const place = placeOf(frame.url);
    const key = `${frame.functionName || '(anonymous)'} ${place}:${frame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    places.set(place, (places.get(place) ?? 0) + us);
    // Inclusive time of our own functions: every distinct src/ frame on the stack gets the sample.
    const seen = new Set();
    for (let cursor = id; cursor !== undefined; cursor = parentOf.get(cursor)) {
      const callFrame = byId.get(cursor).callFrame;
      const ownPlace = placeOf(callFrame.url);
      if (!ownPlace.startsWith('src/')) continue;
      const ownKey = `${callFrame.functionName || '(anonymous)'} ${ownPlace}:${callFrame.lineNumber + 1}`;
      if (seen.has(ownKey)) continue;
      seen.add(ownKey);
      inclusive.set(ownKey, (inclusive.get(ownKey) ?? 0) + us);
    }
  }
  const lines = [];
  lines.push(`busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled (idle ${(idle / 1e6).toFixed(2)} s); shares are of busy time. ` +
    `(program) = native work outside JS (syscalls, libuv, HTTP parser): ${percent(program)}; garbage collector: ${percent(collector)}.`, '');
  lines.push('| self time by place | share |', '|---|---:|');
  for (const [place, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| ${place} | ${percent(us)} |`);
  lines.push('', '| self time by function | share |', '|---|---:|');
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| \`${key}\` | ${percent(us)} |`);
  lines.push('', '| inclusive time, gateway functions (src/) | share |', '|---|---:|');
  for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| \`${key}\` | ${percent(us)} |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/lib/analyze-profile.mjs FILE.cpuprofile [top]\n');
    process.exit(2);
  }
  process.stdout.write(analyzeProfile(JSON.parse(fs.readFileSync(file, 'utf8')), Number(top ?? 30)) + '\n');
}
