import type { PriceEntry, TokenPrices } from '../catalog/pricing/model-price.js';
import type { FormatName } from '../ir/format-name.js';

/** A part of a request the upstream bills beyond the model's token price, as the client named it. */
export interface UnpricedCharge {
  /** The field, tool or header at fault, in the client's own naming. */
  readonly param: string;
  readonly what: string;
}

/** `service_tier` values billed at the model's price or below (flex is cheaper); any other tier costs more. */
const pricedServiceTiers: ReadonlySet<string> = new Set(['auto', 'default', 'flex']);

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
 * The first part of a text request the upstream bills at a price the ledger cannot see: on
 * passthrough the body goes upstream as it is, and the answer's usage counts tokens, not searches
 * or tiers. Undefined when the whole call is priced by the model's token price. A long context
 * past 200,000 tokens (Anthropic's `context-1m` beta) counts as priced when the model's price has
 * a long-context tier, which the cost of every call already applies.
 */
export function unpricedChargeIn(format: FormatName, body: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string>>, price: PriceEntry | undefined): UnpricedCharge | undefined {
  const tier = body['service_tier'];
  if (format !== 'messages' && tier !== undefined && tier !== null && !(typeof tier === 'string' && pricedServiceTiers.has(tier))) {
    return { param: 'service_tier', what: `service_tier ${JSON.stringify(tier)} (billed above the model's price)` };
  }
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

function hasLongContextTier(prices: TokenPrices | undefined): boolean {
  return prices !== undefined && [prices.input, prices.output].some((rate) => rate.tiers.length > 0);
}
