const levelNames: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every record carries; repeating them on each line would only add noise. */
const omittedFields = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** Long values (a request body logged at debug, say) would wrap the terminal line. */
const longestValue = 160;

/**
 * One pino JSON record as one line for a person at a terminal:
 * `14:02:07.315 INFO  switchyard listening url=http://127.0.0.1:8787 models=sim-gpt,sim-claude`.
 * A line that is not a JSON object comes back unchanged.
 */
export function readableLogLine(jsonLine: string): string {
  let record: unknown;
  try {
    record = JSON.parse(jsonLine);
  } catch {
    return jsonLine.trimEnd();
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return jsonLine.trimEnd();
  const fields = record as Record<string, unknown>;
  const parts = [formatTime(fields.time), formatLevel(fields.level)];
  if (typeof fields.msg === 'string' && fields.msg !== '') parts.push(fields.msg);
  for (const [name, value] of Object.entries(fields)) {
    if (omittedFields.has(name) || value === undefined) continue;
    parts.push(`${name}=${formatValue(value)}`);
  }
  return parts.join(' ');
}

function formatTime(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function formatLevel(level: unknown): string {
  const name = typeof level === 'number' ? (levelNames[level] ?? `L${level}`) : 'INFO';
  return name.padEnd(5);
}

function formatValue(value: unknown): string {
  return shorten(renderValue(value));
}

function renderValue(value: unknown): string {
  if (typeof value === 'string') return quoteIfNeeded(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    return value.length === 0 ? '[]' : quoteIfNeeded(value.join(','));
  }
  if (isSerialisedError(value)) return quoteIfNeeded(value.type && value.type !== 'Error' ? `${value.type}: ${value.message}` : value.message);
  return JSON.stringify(value) ?? String(value);
}

/** pino's error serialiser writes `{ type, message, stack }`; the stack would span many lines. */
function isSerialisedError(value: unknown): value is { type?: string; message: string } {
  return value !== null && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string' && 'stack' in value;
}

function quoteIfNeeded(text: string): string {
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

function shorten(text: string): string {
  return text.length <= longestValue ? text : `${text.slice(0, longestValue - 1)}…`;
}
