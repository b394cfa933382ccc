// The calls the operator console makes (bench/console-scale.mjs): each as the admin API path the
// console asks for and as the storage reads its endpoint makes for it (the same arguments the
// handlers in src/endpoints/admin/ pass), so the bench can time the first and explain the second.

const hourMs = 3_600_000;
const dayMs = 86_400_000;
const stepMs = { minute: 60_000, hour: hourMs, day: dayMs };

/** @param {{ end: number, busyKey: string, quietKey: string, deep: string, deepQuiet: string, keyIds: string[] }} state */
export function consoleCalls(state) {
  const ranges = { '1 h': hourMs, '24 h': dayMs, '30 d': 30 * dayMs };
  const sinceOf = (span) => new Date(state.end - span);
  const calls = [];
  // The overview's charts: a range at the step that draws it, and the finer steps a chart zooms to.
  for (const [range, span, step, metric] of [
    ['1 h', hourMs, 'minute', 'requests'],
    ['24 h', dayMs, 'hour', 'requests'],
    ['24 h', dayMs, 'hour', 'latency_p95'],
    ['24 h', dayMs, 'minute', 'cost'],
    ['30 d', 30 * dayMs, 'day', 'cost'],
    ['30 d', 30 * dayMs, 'hour', 'requests'],
    ['30 d', 30 * dayMs, 'hour', 'latency_p50'],
  ]) {
    const since = sinceOf(span);
    calls.push({
      name: `series ${metric}, ${range} by ${step}`,
      path: `/admin/usage/series?metric=${metric}&step=${step}&since=${since.toISOString()}`,
      read: (storage) => storage.ledger.series({ metric, step, since: new Date(Math.floor(since.getTime() / stepMs[step]) * stepMs[step]), until: new Date() }),
    });
  }
  calls.push({
    name: `series requests, 24 h by hour, one key`,
    path: `/admin/usage/series?metric=requests&step=hour&since=${sinceOf(dayMs).toISOString()}&key=${state.busyKey}`,
    read: (storage) => storage.ledger.series({ metric: 'requests', step: 'hour', since: new Date(Math.floor((state.end - dayMs) / hourMs) * hourMs), until: new Date(), keyId: state.busyKey }),
  });
  // Top models and keys for each range, and the 30-day report by key, model and day.
  for (const [range, span] of Object.entries(ranges)) {
    for (const groupBy of range === '30 d' ? ['model', 'key', 'day'] : ['model', 'key']) {
      const since = sinceOf(span);
      // As the Overview asks: hourly rollups for the last hour and day, daily ones for 30 days.
      const step = span <= dayMs ? 'hour' : 'day';
      calls.push({
        name: `usage by ${groupBy}, ${range}`,
        path: `/admin/usage?group_by=${groupBy}&step=${step}&since=${since.toISOString()}`,
        read: (storage) => storage.ledger.usage({ groupBy, step, since }),
      });
    }
  }
  calls.push({
    name: 'usage by model, 30 d, one key',
    path: `/admin/usage?group_by=model&since=${sinceOf(30 * dayMs).toISOString()}&key=${state.quietKey}`,
    read: (storage) => storage.ledger.usage({ groupBy: 'model', since: sinceOf(30 * dayMs), keyId: state.quietKey }),
  });
  // Recent calls: the newest page, a page 29 days back by cursor, and the same for one key.
  const pages = [
    ['requests, newest page', '', undefined, undefined],
    ['requests, page 29 days back', state.deep, undefined, undefined],
    ['requests, newest page, quiet key', '', state.quietKey, undefined],
    ['requests, 29 days back, quiet key', state.deepQuiet, state.quietKey, undefined],
    ['requests, newest page, busy key', '', state.busyKey, undefined],
  ];
  for (const [name, cursor, keyId] of pages) {
    const query = new URLSearchParams({ limit: '50' });
    if (cursor) query.set('before', cursor);
    if (keyId) query.set('key', keyId);
    calls.push({
      name,
      path: `/admin/requests?${query}`,
      read: (storage) => storage.ledger.recent({ limit: 51, ...(cursor ? { before: decodeCursor(cursor) } : {}), ...(keyId ? { keyId } : {}) }),
    });
  }
  calls.push({
    name: 'keys with spend',
    path: '/admin/keys',
    read: async (storage) => {
      const now = new Date();
      for (const key of await storage.keys.list()) await storage.ledger.spend(key.id, now);
    },
  });
  return calls;
}

function decodeCursor(text) {
  const [ms, requestId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  return { createdAt: new Date(ms), requestId };
}
