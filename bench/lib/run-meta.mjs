// What a results file says about where it was measured: the machine, Node, wrk, the commit and the
// build of dist/, the load at start and the pinning.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machineLoad } from './processes.mjs';

/** @param {{ sutCpu: string, loadgenCpu: string }} settings @param {string} repoDir */
export function runMeta(settings, repoDir) {
  const gitHead = spawnSync('git', ['-C', repoDir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const gitDirty = spawnSync('git', ['-C', repoDir, 'status', '--porcelain', 'src'], { encoding: 'utf8' }).stdout.trim() !== '';
  return {
    date: new Date().toISOString(), node: process.version, cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model, commit: gitHead + (gitDirty ? ' (+ uncommitted changes in src/)' : ''),
    dist_built: fs.statSync(path.join(repoDir, 'dist', 'cli', 'main.js')).mtime.toISOString(),
    wrk: spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0], loadavg_start: machineLoad(),
    pinning: `gateway and node proxy on cpu ${settings.sutCpu}; load generators, fake upstream and this script on cpu ${settings.loadgenCpu}`,
  };
}
