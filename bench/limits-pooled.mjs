#!/usr/bin/env node
// Several runs of bench/limits.mjs read as one (bench/README.md "Limits and budgets on the hot
// path"): one run's median moves about ±1.5 % on this VM with nothing changed, so a figure close to
// its target is read from the paired seconds of every run of the same build together. Each pair is
// still a key and the unlimited key of the same repetition of the same run. Prints each run's
// median paired ratio with its 95 % interval, then the pooled median, its interval and quartiles,
// the control key's pooled ratio (1.00 but for noise) and the CPU the key adds per call.
// Usage: node bench/limits-pooled.mjs <results dir or results.json>…   Knobs: MODE (memory), KEY (limited).
import fs from 'node:fs';
import path from 'node:path';
import { median, medianInterval, quartiles } from './lib/statistics.mjs';
import { pairedCpuAdded, pairedRatios } from './lib/paired-runs.mjs';

const mode = process.env.MODE ?? 'memory';
const key = process.env.KEY ?? 'limited';
const files = process.argv.slice(2).map((given) => (given.endsWith('.json') ? given : path.join(given, 'results.json')));
if (files.length === 0) {
  console.error('usage: node bench/limits-pooled.mjs <results dir or results.json>…');
  process.exit(2);
}

const signed = (value) => `${value >= 0 ? '+' : ''}${value}`;
const figures = (values) => `${median(values).toFixed(3)}× (95 % ${medianInterval(values).map((bound) => bound.toFixed(3)).join('–')})`;
const pooled = { ratios: [], control: [], cpuAdded: [] };
for (const file of files) {
  const { runs, build = 'build not recorded' } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const ratios = pairedRatios(runs, mode, key);
  if (ratios.length === 0) {
    console.log(`${file}: no paired runs of ${mode} ${key}`);
    continue;
  }
  const cpuAdded = pairedCpuAdded(runs, mode, key);
  pooled.ratios.push(...ratios);
  pooled.control.push(...pairedRatios(runs, mode, 'control'));
  pooled.cpuAdded.push(...cpuAdded);
  console.log(`${file} (${build}): ${ratios.length} pairs, ${figures(ratios)}, CPU ${signed(median(cpuAdded))} µs/request`);
}
if (pooled.ratios.length > 0) {
  console.log(`pooled ${mode} ${key}: ${pooled.ratios.length} pairs, ${figures(pooled.ratios)}, quartiles ${quartiles(pooled.ratios).map((quartile) => quartile.toFixed(3)).join('–')}, CPU ${signed(median(pooled.cpuAdded))} µs/request`);
}
if (pooled.control.length > 0) console.log(`pooled ${mode} control: ${pooled.control.length} pairs, ${figures(pooled.control)}`);
