import type { PriceEntryConfig } from '../../config/model-record-schema.js';
import type { CatalogRoute, TokenPriceDefaults } from '../model-catalog.js';
import { buildPriceSchedule } from './build-price-schedule.js';
import type { PriceSchedule } from './model-price.js';
import { hasOwnRates } from './price-entry-from-config.js';
import { scheduleOf } from './price-schedule.js';

/**
 * The dataset's default token prices for one route: its upstream model first, then the model's
 * public id, for a route naming what the dataset cannot know (an Azure deployment's own name), where
 * the operator's model id says which model it is.
 */
export function routeTokenDefaults(route: CatalogRoute, publicId: string, defaults: TokenPriceDefaults | undefined): PriceSchedule | undefined {
  const { kind, model } = route.target;
  const found = defaults?.(kind, model) ?? defaults?.(kind, publicId);
  return found === undefined || found.entries.length === 0 ? undefined : scheduleOf(found.entries, found.source, found.origin);
}

/**
 * The routes of a text model, each later route with its own prices when the dataset prices it at
 * another row than the model's (Claude on Anthropic, then on Bedrock at Bedrock's row): a call
 * is charged what the route that served it costs. A model whose config gives its own rates has
 * one price for every route, the operator's; a `markup_percent` alone marks up each route's row.
 */
export function withRouteTokenPrices(
  routes: readonly CatalogRoute[],
  publicId: string,
  configured: readonly PriceEntryConfig[] | undefined,
  modelDefaults: PriceSchedule | undefined,
  defaults: TokenPriceDefaults | undefined,
): readonly CatalogRoute[] {
  if (routes.length < 2 || defaults === undefined || (configured ?? []).some(hasOwnRates)) return routes;
  return routes.map((route, index) => {
    if (index === 0) return route;
    const own = routeTokenDefaults(route, publicId, defaults);
    if (own === undefined || sameRow(own, modelDefaults)) return route;
    const prices = buildPriceSchedule(configured, own, 'text');
    return prices === undefined ? route : { ...route, prices };
  });
}

function sameRow(left: PriceSchedule, right: PriceSchedule | undefined): boolean {
  return right !== undefined && left.origin?.provider === right.origin?.provider && left.origin?.model === right.origin?.model;
}
