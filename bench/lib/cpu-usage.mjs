// Machine-wide CPU use from /proc/stat, so every figure can say how much CPU was taken during it by
// processes that are not part of the benchmark (other engineers' test suites on a shared machine).
import fs from 'node:fs';

const ticksPerSecond = 100; // USER_HZ on Linux

/** Busy and total jiffies of the given CPUs together. */
function readCpus(cpus) {
  let busy = 0;
  let total = 0;
  for (const line of fs.readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+) (.*)$/.exec(line);
    if (!match || !cpus.includes(Number(match[1]))) continue;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = match[2].trim().split(/\s+/).map(Number);
    const lineBusy = user + nice + system + irq + softirq + steal;
    busy += lineBusy;
    total += lineBusy + idle + iowait;
  }
  return { busy, total };
}

/**
 * Starts measuring the given CPUs; stop() returns their busy CPU-seconds, the wall time, and the
 * busy share in percent of one core.
 */
export function watchCpus(cpus) {
  const first = readCpus(cpus);
  const startedAt = Date.now();
  return {
    stop() {
      const last = readCpus(cpus);
      const seconds = (Date.now() - startedAt) / 1000;
      const busySeconds = (last.busy - first.busy) / ticksPerSecond;
      return { busySeconds, seconds, busyPercent: seconds > 0 ? Number(((busySeconds / seconds) * 100).toFixed(1)) : null };
    },
  };
}
