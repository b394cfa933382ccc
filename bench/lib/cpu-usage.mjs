// Whole-core CPU use from /proc/stat, so every figure can say how busy the gateway's core was with
// work that was not ours (other engineers' test suites on a shared 2-core machine).
import fs from 'node:fs';

/** Busy and total jiffies of one CPU. */
function readCpu(cpu) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((text) => text.startsWith(`cpu${cpu} `));
  if (line === undefined) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** Starts measuring; stop() returns the core's busy share in percent (100 = the whole core). */
export function watchCore(cpu) {
  const first = readCpu(cpu);
  return {
    stop() {
      const last = readCpu(cpu);
      if (first === undefined || last === undefined || last.total === first.total) return null;
      return Number((((last.busy - first.busy) / (last.total - first.total)) * 100).toFixed(1));
    },
  };
}
