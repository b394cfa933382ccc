/**
 * Directives are bracketed words in the last user message that steer the simulator, e.g.
 * `[tool:get_weather]` or `[error:503]`. Transport controls can also come from request headers,
 * which win, so a test can drive a gateway without changing prompts.
 */

export interface SimDirectives {
  /** Tool call requested: `undefined` name = the first tool in the request. */
  readonly tool: { readonly name: string | undefined; readonly count: number } | null;
  readonly think: boolean;
  readonly length: boolean;
  readonly words: number | null;
  readonly errorStatus: number | null;
  readonly delayMs: number;
  readonly paceMs: number;
  /** Input tokens reported as written to the prompt cache (`[cache:N]`). */
  readonly cacheWriteTokens: number;
}

const maxWords = 200_000;
const maxToolCalls = 16;
const maxWaitMs = 600_000;

const directivePattern = /\[(tool|tools|think|error|delay|pace|length|words|cache)(?::([^\]\s]*))?\]/gi;

export function parseDirectives(text: string): SimDirectives {
  let tool: SimDirectives['tool'] = null;
  let think = false;
  let length = false;
  let words: number | null = null;
  let errorStatus: number | null = null;
  let delayMs = 0;
  let paceMs = 0;
  let cacheWriteTokens = 0;
  for (const match of text.matchAll(directivePattern)) {
    const name = (match[1] ?? '').toLowerCase();
    const argument = match[2];
    const numeric = argument !== undefined && /^\d+$/.test(argument) ? Number(argument) : null;
    switch (name) {
      case 'tool':
        tool = { name: argument === undefined || argument === '' ? undefined : argument, count: 1 };
        break;
      case 'tools':
        if (numeric !== null && numeric > 0) tool = { name: undefined, count: Math.min(numeric, maxToolCalls) };
        break;
      case 'think':
        think = true;
        break;
      case 'length':
        length = true;
        break;
      case 'words':
        if (numeric !== null && numeric > 0) words = Math.min(numeric, maxWords);
        break;
      case 'error':
        errorStatus = validErrorStatus(numeric);
        break;
      case 'delay':
        if (numeric !== null) delayMs = Math.min(numeric, maxWaitMs);
        break;
      case 'pace':
        if (numeric !== null) paceMs = Math.min(numeric, maxWaitMs);
        break;
      case 'cache':
        if (numeric !== null) cacheWriteTokens = numeric;
        break;
    }
  }
  return { tool, think, length, words, errorStatus, delayMs, paceMs, cacheWriteTokens };
}

/** The user's text without directives, for the echo. */
export function stripDirectives(text: string): string {
  return text.replace(directivePattern, ' ').replace(/\s+/g, ' ').trim();
}

export type HeaderLookup = (name: string) => string | undefined;

/** Applies `x-sim-delay-ms`, `x-sim-pace-ms` and `x-sim-error-status` over the directives. */
export function applyHeaderControls(directives: SimDirectives, header: HeaderLookup): SimDirectives {
  const delay = parseCount(header('x-sim-delay-ms'));
  const pace = parseCount(header('x-sim-pace-ms'));
  const status = validErrorStatus(parseCount(header('x-sim-error-status')));
  return {
    ...directives,
    delayMs: delay === null ? directives.delayMs : Math.min(delay, maxWaitMs),
    paceMs: pace === null ? directives.paceMs : Math.min(pace, maxWaitMs),
    errorStatus: status ?? directives.errorStatus,
  };
}

function parseCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/** Only client and server error statuses make sense as a simulated failure. */
function validErrorStatus(status: number | null): number | null {
  return status !== null && status >= 400 && status <= 599 ? status : null;
}
