import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNanoUsd, parseUsdToNano } from '../../src/catalog/pricing/decimal-usd.js';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertKey, parseCsv } from '../support/admin-keys.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * The read side of the admin API end to end: real calls through the `openai` SDK against the
 * built-in simulator, then every figure the endpoints give checked against the ledger's own
 * entries as `/admin/ledger` exports them.
 */

interface LedgerRecord {
  request_id: string;
  key_id: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  endpoint: string;
  status: number;
  input_uncached: number;
  cache_read: number;
  cache_write: number;
  output: number;
  reasoning: number;
  images: number;
  video_seconds: number;
  usage_estimated: boolean;
  cost_usd: string;
  created_at: string;
  duration_ms: number;
}

const recordFields = [
  'request_id', 'key_id', 'model', 'provider', 'upstream_model', 'endpoint', 'status', 'input_uncached', 'cache_read', 'cache_write',
  'output', 'reasoning', 'images', 'video_seconds', 'usage_estimated', 'cost_usd', 'created_at', 'duration_ms',
];
const numericFields = ['status', 'input_uncached', 'cache_read', 'cache_write', 'output', 'reasoning', 'images', 'video_seconds', 'duration_ms'] as const;
const summedFields = ['input_uncached', 'cache_read', 'cache_write', 'output', 'reasoning', 'images', 'video_seconds'] as const;

let gateway: TestGateway;
let admin: { id: string; secret: string };
let plain: { id: string; secret: string };
let plainClient: OpenAI;
let videoId: string;

async function adminGet(path: string, secret = admin.secret): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
}

async function adminJson<T>(path: string): Promise<T> {
  const response = await adminGet(path);
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return (await response.json()) as T;
}

async function exportedJsonLines(query = ''): Promise<LedgerRecord[]> {
  const response = await adminGet(`/admin/ledger?format=jsonl${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/x-ndjson');
  const text = await response.text();
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LedgerRecord);
}

function sumCost(records: readonly LedgerRecord[]): string {
  return formatNanoUsd(records.reduce((sum, record) => sum + parseUsdToNano(record.cost_usd), 0n));
}

/** What `/admin/usage` must say for these records. */
function usageOf(records: readonly LedgerRecord[]) {
  const sums: Record<string, number | string> = { requests: records.length, errors: records.filter((record) => record.status >= 400).length };
  for (const field of summedFields) sums[field] = records.reduce((sum, record) => sum + record[field], 0);
  sums['cost_usd'] = sumCost(records);
  return sums;
}

function groupedBy(records: readonly LedgerRecord[], key: (record: LedgerRecord) => string | null): Map<string | null, LedgerRecord[]> {
  const groups = new Map<string | null, LedgerRecord[]>();
  for (const record of records) groups.set(key(record), [...(groups.get(key(record)) ?? []), record]);
  return groups;
}

async function until(condition: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

beforeAll(async () => {
  gateway = await startTestGateway({
    ...defaultConfig({}),
    videos: quickVideoSettings,
    content: { dir: temporaryContentDirectory() },
    admin: { stream_poll_interval_ms: 50 },
  });
  admin = await insertKey(gateway.services.storage, 'operator', true);
  plain = await insertKey(gateway.services.storage, 'app', false);
  plainClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: plain.secret, maxRetries: 0 });
  const adminClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: admin.secret, maxRetries: 0 });

  await plainClient.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'first call' }] });
  await plainClient.chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'second, translated [cache:3] [think] [delay:300]' }] });
  const stream = await plainClient.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'a streamed one' }], stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) void chunk;
  // A stream the client gives up on is metered as a failure (499) for what it delivered.
  const abandoning = new AbortController();
  const abandoned = await plainClient.chat.completions.create(
    { model: 'sim-gpt', messages: [{ role: 'user', content: 'given up [words:40] [pace:100]' }], stream: true },
    { signal: abandoning.signal },
  );
  for await (const chunk of abandoned) {
    void chunk;
    abandoning.abort();
  }
  // Its entry comes once the gateway has read on for the usage it was billed (up to two seconds).
  await waitForLedgerEntry(gateway, 4);
  await adminClient.chat.completions.create({ model: 'sim-gemini', messages: [{ role: 'user', content: 'the operator tries a model' }] });
  const video = await plainClient.videos.create({ model: 'sim-video', prompt: 'a lighthouse [video-ms:800]', seconds: '4', size: '1280x720' });
  videoId = video.id;
  expect((await pollUntilDone(plainClient, videoId)).video.status).toBe('completed');
  await gateway.services.ledger.flush();
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe('the ledger export', () => {
  it('streams every entry as JSON lines, oldest first, with the documented fields', async () => {
    const records = await exportedJsonLines();
    const stored = await gateway.services.storage.ledger.list({ limit: 1_000 });
    expect(records.map((record) => record.request_id)).toEqual(stored.map((entry) => entry.requestId).reverse());
    expect(records.length).toBeGreaterThanOrEqual(6);
    for (const record of records) expect(Object.keys(record)).toEqual(recordFields);
    const videoEntry = records.find((record) => record.request_id === videoId);
    expect(videoEntry).toMatchObject({ key_id: plain.id, model: 'sim-video', endpoint: 'videos', video_seconds: 4, cost_usd: '0.40' });
    expect(records.filter((record) => record.status >= 400)).toHaveLength(1);
    expect(records.filter((record) => record.key_id === admin.id).map((record) => record.model)).toEqual(['sim-gemini']);
    const created = records.map((record) => Date.parse(record.created_at));
    expect(created).toEqual([...created].sort((left, right) => left - right));
  });

  it('gives the same entries as CSV with a header row', async () => {
    const response = await adminGet('/admin/ledger?format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual(recordFields);
    const fromCsv = rows.map((row) => {
      const record: Record<string, unknown> = Object.fromEntries(recordFields.map((field, index) => [field, row[index]]));
      for (const field of numericFields) record[field] = Number(record[field]);
      record['usage_estimated'] = record['usage_estimated'] === 'true';
      if (record['key_id'] === '') record['key_id'] = null;
      return record;
    });
    expect(fromCsv).toEqual(await exportedJsonLines());
  });

  it('filters by key, model and time range', async () => {
    const all = await exportedJsonLines();
    expect(await exportedJsonLines(`&key=${plain.id}`)).toEqual(all.filter((record) => record.key_id === plain.id));
    expect(await exportedJsonLines('&model=sim-claude')).toEqual(all.filter((record) => record.model === 'sim-claude'));
    const middle = all[2] as LedgerRecord;
    const since = encodeURIComponent(middle.created_at);
    expect(await exportedJsonLines(`&since=${since}`)).toEqual(all.filter((record) => record.created_at >= middle.created_at));
    expect(await exportedJsonLines(`&until=${since}`)).toEqual(all.filter((record) => record.created_at < middle.created_at));
    expect(await exportedJsonLines('&since=2000-01-01&until=2000-01-02')).toEqual([]);
  });
});

describe('usage', () => {
  it('sums each key, model and day exactly as the exported entries add up', async () => {
    const records = await exportedJsonLines();
    const groupings = [
      ['key', 'key_id', (record: LedgerRecord) => record.key_id],
      ['model', 'model', (record: LedgerRecord) => record.model],
      ['day', 'day', (record: LedgerRecord) => record.created_at.slice(0, 10)],
    ] as const;
    for (const [groupBy, field, key] of groupings) {
      const usage = await adminJson<{ object: string; group_by: string; data: Record<string, unknown>[] }>(`/admin/usage?group_by=${groupBy}`);
      expect(usage.object).toBe('list');
      expect(usage.group_by).toBe(groupBy);
      const named = (group: string | null) => (groupBy === 'key' ? { key_name: group === admin.id ? 'operator' : group === plain.id ? 'app' : null } : {});
      const expected = [...groupedBy(records, key)].map(([group, members]) => ({ [field]: group, ...named(group), ...usageOf(members) }));
      const order = (item: Record<string, unknown>) => String(item[field] ?? '');
      expect([...usage.data].sort((left, right) => order(left).localeCompare(order(right)))).toEqual(
        expected.sort((left, right) => order(left).localeCompare(order(right))),
      );
    }
  });

  it('narrows to one key and to a range of days', async () => {
    const records = await exportedJsonLines();
    const ofPlain = await adminJson<{ data: Record<string, unknown>[] }>(`/admin/usage?group_by=key&key=${plain.id}`);
    expect(ofPlain.data).toEqual([{ key_id: plain.id, key_name: 'app', ...usageOf(records.filter((record) => record.key_id === plain.id)) }]);
    const today = new Date().toISOString().slice(0, 10);
    const todays = await adminJson<{ data: Record<string, unknown>[] }>(`/admin/usage?group_by=day&since=${today}`);
    expect(todays.data.map((group) => group['day'])).toEqual([...new Set(records.map((record) => record.created_at.slice(0, 10)))].filter((day) => day >= today));
    expect(await adminJson<{ data: unknown[] }>('/admin/usage?group_by=model&since=2000-01-01T10:00:00Z&until=2000-02-01T00:00:01Z')).toMatchObject({
      since: '2000-01-01T00:00:00.000Z',
      until: '2000-02-02T00:00:00.000Z',
      data: [],
    });
    expect(await adminJson<{ since: null; until: null }>('/admin/usage?group_by=model')).toMatchObject({ since: null, until: null });
  });

  it('sums the last hour from the hourly rollups, rounded out to whole hours', async () => {
    const records = await exportedJsonLines();
    const since = new Date(Date.now() - 3_600_000);
    const hourStart = new Date(Math.floor(since.getTime() / 3_600_000) * 3_600_000).toISOString();
    const lastHour = await adminJson<{ step: string; since: string; data: Record<string, unknown>[] }>(`/admin/usage?group_by=model&step=hour&since=${since.toISOString()}`);
    expect(lastHour).toMatchObject({ step: 'hour', since: hourStart });
    const recent = records.filter((record) => record.created_at >= hourStart);
    expect(recent.length).toBeGreaterThan(0);
    const models = [...new Set(recent.map((record) => record.model))].sort();
    expect(lastHour.data).toEqual(models.map((model) => ({ model, ...usageOf(recent.filter((record) => record.model === model)) })));
  });
});

describe('usage series', () => {
  it('counts requests, errors and cost per minute in line with the entries, every bucket present', async () => {
    const records = await exportedJsonLines();
    const since = new Date(Date.parse(records[0]!.created_at) - 5 * 60_000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    const range = `&step=minute&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
    type Series = { object: string; metric: string; step: string; unit: string; since: string; data: { at: string; value: number | string | null }[] };
    const requests = await adminJson<Series>(`/admin/usage/series?metric=requests${range}`);
    expect(requests).toMatchObject({ object: 'usage.series', metric: 'requests', step: 'minute', unit: 'count' });
    const starts = requests.data.map((point) => Date.parse(point.at));
    expect(starts.every((start, index) => index === 0 || start - starts[index - 1]! === 60_000)).toBe(true);
    expect(requests.data.length).toBeGreaterThanOrEqual(6);
    expect(requests.data.reduce((sum, point) => sum + (point.value as number), 0)).toBe(records.length);
    for (const record of records) {
      const minute = Math.floor(Date.parse(record.created_at) / 60_000) * 60_000;
      expect(requests.data.find((point) => Date.parse(point.at) === minute)?.value).toBe(records.filter((other) => Math.floor(Date.parse(other.created_at) / 60_000) * 60_000 === minute).length);
    }
    const errors = await adminJson<Series>(`/admin/usage/series?metric=errors${range}`);
    expect(errors.data.reduce((sum, point) => sum + (point.value as number), 0)).toBe(1);
    const cost = await adminJson<Series>(`/admin/usage/series?metric=cost${range}`);
    expect(cost.unit).toBe('usd');
    expect(formatNanoUsd(cost.data.reduce((sum, point) => sum + parseUsdToNano(point.value as string), 0n))).toBe(sumCost(records));
    const latency = await adminJson<Series>(`/admin/usage/series?metric=latency_p95${range}`);
    expect(latency.unit).toBe('ms');
    latency.data.forEach((point, index) => {
      const called = (requests.data[index]?.value as number) > 0;
      if (called) expect(point.value).toBeGreaterThan(0);
      else expect(point.value).toBeNull();
    });
  });

  it('filters by key and model and defaults the range to the step', async () => {
    const records = await exportedJsonLines();
    type Series = { since: string; until: string; data: { value: number }[] };
    const ofModel = await adminJson<Series>(`/admin/usage/series?metric=requests&step=day&key=${plain.id}&model=sim-gpt`);
    expect(ofModel.data).toHaveLength(31);
    expect(ofModel.data.reduce((sum, point) => sum + point.value, 0)).toBe(records.filter((record) => record.key_id === plain.id && record.model === 'sim-gpt').length);
    const hourly = await adminJson<Series>('/admin/usage/series?metric=requests');
    expect(hourly.data.length).toBeGreaterThanOrEqual(24);
    expect(hourly.data.length).toBeLessThanOrEqual(25);
  });
});

describe('recent calls', () => {
  it('pages newest first through every entry with next_before', async () => {
    const records = await exportedJsonLines();
    const seen: LedgerRecord[] = [];
    let path = '/admin/requests?limit=2';
    for (let pages = 0; pages < 50; pages++) {
      const page = await adminJson<{ object: string; data: LedgerRecord[]; has_more: boolean; next_before: string | null }>(path);
      expect(page.object).toBe('list');
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      if (page.next_before === null) {
        expect(page.has_more).toBe(false);
        break;
      }
      path = `/admin/requests?limit=2&before=${encodeURIComponent(page.next_before)}`;
    }
    expect(seen).toEqual([...records].reverse());
    const firstPage = await adminJson<{ data: LedgerRecord[]; has_more: boolean }>(`/admin/requests?limit=500`);
    expect(firstPage).toMatchObject({ has_more: false, data: [...records].reverse() });
    const ofAdmin = await adminJson<{ data: LedgerRecord[]; has_more: boolean; next_before: null }>(`/admin/requests?key=${admin.id}`);
    expect(ofAdmin).toMatchObject({ has_more: false, next_before: null, data: records.filter((record) => record.key_id === admin.id) });
  });

  it('streams a call made after the client connected as a server-sent event', async () => {
    const aborter = new AbortController();
    const response = await fetch(`${gateway.url}/admin/requests/stream`, { headers: { authorization: `Bearer ${admin.secret}` }, signal: aborter.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const before = new Set((await exportedJsonLines()).map((record) => record.request_id));
    const { response: answer } = await plainClient.chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'seen live' }] }).withResponse();
    const requestId = answer.headers.get('x-request-id');
    await gateway.services.ledger.flush();
    let text = '';
    const deadline = Date.now() + 10_000;
    while (!text.includes(`"request_id":"${requestId}"`) && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(resolve, 1_000))]);
      if (next?.done) break;
      if (next?.value !== undefined) text += next.value;
    }
    // Once the client has gone, the process stops reading the ledger for it.
    const ledger = gateway.services.storage.ledger;
    const entries = ledger.entries.bind(ledger);
    let reads = 0;
    ledger.entries = (filter) => {
      reads += 1;
      return entries(filter);
    };
    expect(await until(() => reads > 0)).toBe(true);
    aborter.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readsAfterLeaving = reads;
    await new Promise((resolve) => setTimeout(resolve, 300));
    ledger.entries = entries;
    expect(reads).toBe(readsAfterLeaving);
    expect(text.startsWith(': connected')).toBe(true);
    const events = text.split('\n\n').filter((block) => block.startsWith('id: ')).map((block) => JSON.parse(block.split('\ndata: ')[1]!) as LedgerRecord);
    // Only what was written after connecting: nothing already in the ledger is replayed.
    expect(events.filter((event) => before.has(event.request_id))).toEqual([]);
    const live = events.find((event) => event.request_id === requestId);
    expect(live).toMatchObject({ key_id: plain.id, model: 'sim-claude', endpoint: 'chat', status: 200 });
    expect(Object.keys(live!)).toEqual(recordFields);
  });
});

describe('video jobs', () => {
  it('lists every key\'s jobs with their key, state, cost and times', async () => {
    const list = await adminJson<{ object: string; data: Record<string, unknown>[]; has_more: boolean; next_before: string | null }>('/admin/videos');
    expect(list).toMatchObject({ object: 'list', has_more: false, next_before: null });
    const job = list.data.find((item) => item['id'] === videoId);
    expect(job).toMatchObject({ object: 'admin.video', key_id: plain.id, status: 'completed', progress: 100, model: 'sim-video', seconds: 4, delivered_seconds: 4, size: '1280x720', cost_usd: '0.40', error: null, deleted_at: null });
    expect(Date.parse(job!['completed_at'] as string)).toBeGreaterThanOrEqual(Date.parse(job!['created_at'] as string));
    expect((await adminJson<{ data: unknown[] }>('/admin/videos?status=failed')).data).toEqual([]);
    expect((await adminJson<{ data: { id: string }[] }>('/admin/videos?status=completed&limit=1')).data.map((item) => item.id)).toEqual([videoId]);
  });

  it('serves any key\'s content to an admin key as the owner downloads it', async () => {
    const owners = Buffer.from(await (await plainClient.videos.downloadContent(videoId)).arrayBuffer());
    const response = await adminGet(`/admin/videos/${videoId}/content`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await response.arrayBuffer()).equals(owners)).toBe(true);
    const thumbnail = await adminGet(`/admin/videos/${videoId}/content?variant=thumbnail`);
    expect(thumbnail.status).toBe(200);
    await thumbnail.arrayBuffer();
    expect((await adminGet('/admin/videos/video_unknown/content')).status).toBe(404);
    expect((await adminGet('/admin/videos/not-a-job/content')).status).toBe(404);
    expect((await adminGet(`/admin/videos/${videoId}/content?variant=poster`)).status).toBe(400);
  });
});

describe('access and bad input', () => {
  const endpoints = ['/admin/usage', '/admin/usage/series?metric=requests', '/admin/ledger', '/admin/requests', '/admin/requests/stream', '/admin/videos', '/admin/videos/video_x/content'];

  it.each(endpoints)('%s answers 401 without a key or with an unknown one, and 403 to a key that is not an admin key', async (path) => {
    const anonymous = await fetch(`${gateway.url}${path}`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error).toBeDefined();
    expect((await adminGet(path, 'sy-not-a-real-key')).status).toBe(401);
    const refused = await adminGet(path, plain.secret);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['/admin/usage?group_by=week', 'group_by'],
    ['/admin/usage?step=minute', 'step'],
    ['/admin/usage?since=2025-13-01', 'since'],
    ['/admin/usage?since=2025-02-30', 'since'],
    ['/admin/usage?until=yesterday', 'until'],
    ['/admin/usage?since=2025-03-02&until=2025-03-01', 'since'],
    ['/admin/usage?groupby=key', 'groupby'],
    ['/admin/usage/series', 'metric'],
    ['/admin/usage/series?metric=tokens', 'metric'],
    ['/admin/usage/series?metric=requests&step=week', 'step'],
    ['/admin/usage/series?metric=requests&step=minute&since=2020-01-01&until=2026-01-01', 'since'],
    ['/admin/usage/series?metric=cost&since=2025-03-01T12:00:00', 'since'],
    ['/admin/ledger?format=xml', 'format'],
    ['/admin/ledger?since=1700000000', 'since'],
    ['/admin/ledger?until=2025-01-01&since=2025-01-01', 'since'],
    ['/admin/requests?limit=0', 'limit'],
    ['/admin/requests?limit=501', 'limit'],
    ['/admin/requests?limit=ten', 'limit'],
    ['/admin/requests?before=garbage', 'before'],
    ['/admin/requests?page=2', 'page'],
    ['/admin/requests/stream?since=2025-01-01', 'since'],
    ['/admin/videos?status=done', 'status'],
    ['/admin/videos?limit=1000', 'limit'],
    ['/admin/videos?before=job_1', 'before'],
  ])('%s is a 400 naming %s', async (path, param) => {
    const response = await adminGet(path);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string; message: string; type: string } };
    expect(body.error.param).toBe(param);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message.length).toBeGreaterThan(10);
  });

  it('answers 405 to other methods', async () => {
    const response = await fetch(`${gateway.url}/admin/ledger`, { method: 'POST', headers: { authorization: `Bearer ${admin.secret}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
