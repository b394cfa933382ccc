import { getJson } from '../api.js';
import { showUsd } from '../money.js';
import { ErrorNotice } from '../parts/notice.js';
import { useLoad } from '../parts/use-load.js';

interface ModelEntry {
  id: string;
  owned_by: string;
  output_modality: 'text' | 'image' | 'video';
}

interface PricingEntry {
  model: string;
  output_modality: string;
  priced: boolean;
  effective_from?: string;
  text?: Record<string, string>;
  image?: { tiers: { quality: string; size: string; usd_per_image: string }[] };
  video?: { variants: { mode: string; resolution: string; aspect_ratio: string; size: string; seconds: string[]; usd_per_second?: string }[] };
  scheduled: unknown[];
}

/** The pricing dataset's row a model's prices came from (`GET /admin/routes`). */
interface DatasetRow {
  provider: string;
  model: string;
  looked_up: string;
  cross_region?: { prefix: string; profile_priced: boolean; against_in_region: 'higher' | 'lower' | 'same' | 'unknown' };
}

/** Where a model's prices came from, with its routes (`GET /admin/routes`). */
interface ModelRoutes {
  model: string;
  price_source: 'config' | 'cloud-dataset' | 'vendor-dataset' | 'builtin' | 'none';
  price_dataset_row: DatasetRow | null;
  routes: RouteHealth[];
}

/** One route's circuit breaker as this instance sees it (`GET /admin/routes`). */
interface RouteHealth {
  provider: string;
  upstream_model: string;
  state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  retry_at: string | null;
  /** Set only on a route the dataset prices at another row than the model: what a call it serves costs. */
  price_source?: ModelRoutes['price_source'];
  price_dataset_row?: DatasetRow | null;
}

const modalities = ['text', 'image', 'video'] as const;

/**
 * Every model the gateway sells, by what it makes, with its prices and its routes' health: from
 * `/v1/models`, `/v1/models/pricing` and `/admin/routes`.
 */
export function ModelsPage() {
  const loaded = useLoad(async () => {
    const [models, pricing, routes] = await Promise.all([
      getJson<{ data: ModelEntry[] }>('/v1/models?output_modalities=text,image,video'),
      getJson<{ data: PricingEntry[] }>('/v1/models/pricing'),
      getJson<{ data: ModelRoutes[] }>('/admin/routes'),
    ]);
    return {
      models: models.data,
      pricing: new Map(pricing.data.map((entry) => [entry.model, entry])),
      routes: new Map(routes.data.map((entry) => [entry.model, entry])),
    };
  }, []);
  return (
    <section>
      <ErrorNotice error={loaded.error} />
      {modalities.map((modality) => {
        const models = loaded.data?.models.filter((model) => model.output_modality === modality) ?? [];
        return (
          <div key={modality} class="panel">
            <h2>{modality === 'text' ? 'Text models' : modality === 'image' ? 'Image models' : 'Video models'}</h2>
            {models.length === 0 ? <p class="hint">None configured.</p> : null}
            {models.map((model) => (
              <ModelCard key={model.id} model={model} pricing={loaded.data?.pricing.get(model.id)} routes={loaded.data?.routes.get(model.id)} />
            ))}
          </div>
        );
      })}
    </section>
  );
}

function ModelCard(props: { model: ModelEntry; pricing: PricingEntry | undefined; routes: ModelRoutes | undefined }) {
  const pricing = props.pricing;
  const callable = pricing?.priced === true;
  return (
    <article class="model">
      <h3 class="id">
        {props.model.id} <span class={`badge ${callable ? 'active' : 'revoked'}`}>{callable ? 'callable' : 'not priced: refused'}</span>
      </h3>
      <p class="hint">
        by {props.model.owned_by}
        {pricing?.effective_from === undefined ? '' : ` · prices from ${pricing.effective_from}`}
        {pricing !== undefined && pricing.scheduled.length > 0 ? ' · new prices scheduled' : ''}
      </p>
      {props.routes === undefined ? null : <PriceSource routes={props.routes} />}
      <RouteList routes={props.routes?.routes ?? []} />
      {pricing?.text === undefined ? null : (
        <dl class="prices">
          {Object.entries(pricing.text).map(([name, usd]) => (
            <div key={name}>
              <dt>{name.replace(/_usd_per_mtok$/, '').replaceAll('_', ' ')}</dt>
              <dd>{showUsd(usd)} / M tokens</dd>
            </div>
          ))}
        </dl>
      )}
      {pricing?.image === undefined ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Quality</th>
              <th scope="col">Size</th>
              <th scope="col" class="number">Per image</th>
            </tr>
          </thead>
          <tbody>
            {pricing.image.tiers.map((tier) => (
              <tr key={`${tier.quality}/${tier.size}`}>
                <td>{tier.quality}</td>
                <td>{tier.size}</td>
                <td class="number">{showUsd(tier.usd_per_image)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pricing?.video === undefined ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Mode</th>
              <th scope="col">Size</th>
              <th scope="col">Seconds</th>
              <th scope="col" class="number">Per second</th>
            </tr>
          </thead>
          <tbody>
            {pricing.video.variants.map((variant) => (
              <tr key={`${variant.mode}/${variant.size}`}>
                <td>{variant.mode}</td>
                <td>
                  {variant.size} ({variant.aspect_ratio})
                </td>
                <td>{variant.seconds.join(', ')}</td>
                <td class="number">{variant.usd_per_second === undefined ? 'not sold' : showUsd(variant.usd_per_second)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

const sourceWords = {
  config: 'priced by the config',
  'cloud-dataset': "priced from the pricing dataset's row for the cloud that serves it",
  'vendor-dataset': "priced from the pricing dataset's row for its vendor",
  builtin: "priced from the gateway's own media prices",
  none: 'no price from the config or the pricing dataset',
} as const;

const crossRegionWords = { higher: 'above', lower: 'below', same: 'the same as', unknown: 'unknown against' } as const;

/** Where the prices came from: the config, a dataset row (which, and how a cross-region profile was priced), or nowhere. */
function PriceSource(props: { routes: ModelRoutes }) {
  const row = props.routes.price_dataset_row;
  const crossRegion = row?.cross_region;
  return (
    <p class="hint">
      {sourceWords[props.routes.price_source]}
      {row === null ? '' : ` · ${row.provider} ${row.model}`}
      {row === null || row.looked_up === row.model ? '' : ` (as ${row.looked_up})`}
      {crossRegion === undefined
        ? ''
        : crossRegion.profile_priced
          ? ` · ${crossRegion.prefix}. profile: ${crossRegionWords[crossRegion.against_in_region]} the in-region price`
          : ` · no row for the ${crossRegion.prefix}. profile: priced as in one region`}
    </p>
  );
}

const routeStates = { closed: ['active', 'healthy'], half_open: ['in_progress', 'on trial'], open: ['revoked', 'skipped'] } as const;

/** The routes in the order they are tried, each with its circuit breaker: open means skipped until `retry_at`. */
function RouteList(props: { routes: readonly RouteHealth[] }) {
  if (props.routes.length === 0) return null;
  return (
    <ol class="routes" aria-label="Routes, in the order they are tried">
      {props.routes.map((route) => {
        const [badge, words] = routeStates[route.state];
        return (
          <li key={`${route.provider}/${route.upstream_model}`}>
            <span class="id">
              {route.provider} → {route.upstream_model}
            </span>{' '}
            <span class={`badge ${badge}`}>{words}</span>
            {route.consecutive_failures > 0 ? <span class="hint"> · {route.consecutive_failures} failures in a row</span> : null}
            {route.retry_at === null ? null : <span class="hint"> · tried again at {new Date(route.retry_at).toLocaleTimeString()}</span>}
            {route.price_dataset_row === undefined || route.price_dataset_row === null ? null : (
              <span class="hint">
                {' '}
                · its calls priced at {route.price_dataset_row.provider} {route.price_dataset_row.model}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
