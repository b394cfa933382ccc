/** One sample line of the Prometheus text exposition format. */
export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const samplePattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/gy;

/** Parses the text format (version 0.0.4) into samples; throws on a line it cannot read. */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = samplePattern.exec(line);
    if (match === null) throw new Error(`Not a Prometheus sample line: ${line}`);
    samples.push({ name: match[1]!, labels: parseLabels(match[2] ?? '', line), value: parseSampleValue(match[3]!) });
  }
  return samples;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  labelPattern.lastIndex = 0;
  let position = 0;
  while (position < text.length) {
    labelPattern.lastIndex = position;
    const match = labelPattern.exec(text);
    if (match === null) throw new Error(`Unreadable labels in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    position = labelPattern.lastIndex;
    if (text[position] === ',') position += 1;
  }
  return labels;
}

/** Values as Prometheus reads them (Go's ParseFloat: `NaN` and `Inf` in any case; prom-client writes `Nan`). */
function parseSampleValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`Not a sample value: ${text}`);
  return value;
}

/** The samples of `name` whose labels include every one of `labels`. */
export function samplesOf(samples: readonly PrometheusSample[], name: string, labels: Readonly<Record<string, string>> = {}): PrometheusSample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value));
}

/** The sum of those samples (0 when there are none). */
export function sumOf(samples: readonly PrometheusSample[], name: string, labels: Readonly<Record<string, string>> = {}): number {
  return samplesOf(samples, name, labels).reduce((total, sample) => total + sample.value, 0);
}
