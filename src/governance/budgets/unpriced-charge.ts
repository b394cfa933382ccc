import type { PriceEntry, TokenPrices } from '../../catalog/pricing/model-price.js';
import type { FormatName } from '../../ir/format-name.js';

/** A part of a request the upstream bills beyond the model's token price, as the client named it. */
export interface UnpricedCharge {
  /** The field, tool or header at fault, in the client's own naming. */
  readonly param: string;
  readonly what: string;
}

const openAiPricedTiers: ReadonlySet<string> = new Set(['auto', 'default', 'flex']);

/**
 * `service_tier` values billed at the model's price or below; any other tier costs more, or is
 * unknown and may. OpenAI: flex is cheaper, priority dearer. Anthropic: `auto` draws on Priority
 * Tier capacity only where the organisation bought it beforehand, so no call is billed above the
 * price, and `standard_only` never does.
 */
const pricedServiceTiers: Readonly<Record<FormatName, ReadonlySet<string>>> = {
  chat: openAiPricedTiers,
  responses: openAiPricedTiers,
  messages: new Set(['auto', 'standard_only']),
};

/**
 * Responses fields that put the call's input or output where the reservation cannot reach: a
 * stored prompt template and a server-side conversation are input the body does not hold (the
 * worst case is read from the body's size), and a background response keeps generating upstream
 * after its stream is cut, with usage the gateway never sees.
 */
const serverSideResponsesFields: readonly (readonly [string, string])[] = [
  ['prompt', 'a stored prompt template, whose input lives upstream and not in the body'],
  ['conversation', 'a server-side conversation, whose input lives upstream and not in the body'],
];

/**
 * Hosted tools the vendor bills per call or per session on top of tokens (web search, file
 * search, code execution, image generation), by the start of their `type`. Tools billed in tokens
 * only (MCP, web fetch, client tools) are not listed.
 */
const billedHostedTools: Readonly<Record<FormatName, readonly string[]>> = {
  chat: [],
  responses: ['web_search', 'file_search', 'code_interpreter', 'image_generation'],
  messages: ['web_search_', 'code_execution_'],
};

/**
 * The first part of a text request the upstream bills at a price the ledger cannot see, or for
 * work the reservation cannot bound: on passthrough the body goes upstream as it is, and the
 * answer's usage counts tokens, not searches, tiers, audio or input kept upstream. Undefined when the whole call is priced by the model's token price. A long context
 * past 200,000 tokens (Anthropic's `context-1m` beta) counts as priced when the model's price has
 * a long-context tier, which the cost of every call already applies.
 */
export function unpricedChargeIn(format: FormatName, body: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string>>, price: PriceEntry | undefined): UnpricedCharge | undefined {
  const tier = body['service_tier'];
  if (isSet(tier) && !(typeof tier === 'string' && pricedServiceTiers[format].has(tier))) {
    return { param: 'service_tier', what: `service_tier ${JSON.stringify(tier)} (billed above the model's price)` };
  }
  const hidden = format === 'chat' ? audioOutputIn(body) : format === 'responses' ? serverSideWorkIn(body) : anthropicPremiumIn(body);
  if (hidden !== undefined) return hidden;
  if (format === 'chat' && body['web_search_options'] !== undefined && body['web_search_options'] !== null) {
    return { param: 'web_search_options', what: 'web_search_options (web searches are billed per call)' };
  }
  const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
  for (const [index, tool] of tools.entries()) {
    const type = typeof tool === 'object' && tool !== null ? (tool as Record<string, unknown>)['type'] : undefined;
    if (typeof type === 'string' && billedHostedTools[format].some((prefix) => type.startsWith(prefix))) {
      return { param: `tools[${index}]`, what: `the hosted tool '${type}' (billed per call or session by the vendor)` };
    }
  }
  const betas = (headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
  const longContext = betas.find((beta) => beta.startsWith('context-1m'));
  if (longContext !== undefined && !hasLongContextTier(price?.text)) {
    return { param: 'anthropic-beta', what: `the anthropic-beta '${longContext}' (long-context rates this model has no price for)` };
  }
  const fast = betas.find((beta) => beta.startsWith('fast-mode'));
  if (fast !== undefined) return { param: 'anthropic-beta', what: `the anthropic-beta '${fast}' (billed above the model's price)` };
  return undefined;
}

/** Chat's audio output, billed at audio token rates that no price in the catalog has; its usage would be recorded as text output. */
function audioOutputIn(body: Readonly<Record<string, unknown>>): UnpricedCharge | undefined {
  const modalities = body['modalities'];
  if (Array.isArray(modalities) && modalities.includes('audio')) {
    return { param: 'modalities', what: "modalities 'audio' (audio output is billed at audio rates the model's price does not have)" };
  }
  if (isSet(body['audio'])) return { param: 'audio', what: "audio (audio output is billed at audio rates the model's price does not have)" };
  return undefined;
}

function serverSideWorkIn(body: Readonly<Record<string, unknown>>): UnpricedCharge | undefined {
  if (body['background'] === true) {
    return { param: 'background', what: 'background (a background response generates on upstream after its stream is cut, and its usage never reaches the gateway)' };
  }
  const field = serverSideResponsesFields.find(([name]) => isSet(body[name]));
  return field === undefined ? undefined : { param: field[0], what: `${field[0]} (${field[1]})` };
}

/**
 * Anthropic's body options billed at a multiple of the model's rates: fast mode (`speed: "fast"`,
 * several times the price) and US-only inference (`inference_geo` other than `global`, 1.1 times
 * on recent models). The defaults, `standard` and `global`, are priced.
 */
function anthropicPremiumIn(body: Readonly<Record<string, unknown>>): UnpricedCharge | undefined {
  const speed = body['speed'];
  if (isSet(speed) && speed !== 'standard') return { param: 'speed', what: `speed ${JSON.stringify(speed)} (fast mode is billed above the model's price)` };
  const geo = body['inference_geo'];
  if (isSet(geo) && geo !== 'global') return { param: 'inference_geo', what: `inference_geo ${JSON.stringify(geo)} (inference kept to one region is billed above the model's price)` };
  return undefined;
}

/** A null sets nothing: some clients write every field they know, unset ones as null. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function hasLongContextTier(prices: TokenPrices | undefined): boolean {
  return prices !== undefined && [prices.input, prices.output].some((rate) => rate.tiers.length > 0);
}
