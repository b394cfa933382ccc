import { useEffect, useState } from 'preact/hooks';
import { call, getJson, messageOf, query } from '../api.js';
import { showUsd } from '../money.js';
import { useKeyNames } from '../parts/key-names.js';
import { ErrorNotice } from '../parts/notice.js';
import { readEvents } from '../parts/sse.js';
import { showNumber, showTime } from '../parts/time.js';
import { useLoad } from '../parts/use-load.js';
import type { LedgerRecord, List } from '../types.js';

const pageSize = 50;
/** Live rows kept on screen; older ones are on the server's pages. */
const liveLimit = 200;

/**
 * The most recent calls, a page at a time from `/admin/requests`, and optionally a live tail over
 * one `/admin/requests/stream`, read through fetch so it carries the admin key.
 */
export function RequestsPage() {
  const keyName = useKeyNames();
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1);
  const page = useLoad(() => getJson<List<LedgerRecord>>(`/admin/requests${query({ limit: pageSize, before })}`), [before]);
  const [live, setLive] = useState(false);
  const [liveRows, setLiveRows] = useState<LedgerRecord[]>([]);
  const [liveError, setLiveError] = useState<string>();
  useEffect(() => {
    if (!live) return;
    const abort = new AbortController();
    setLiveError(undefined);
    call('/admin/requests/stream', { signal: abort.signal, headers: { accept: 'text/event-stream' } })
      .then((response) =>
        readEvents(
          response,
          (data) => {
            const record = JSON.parse(data) as LedgerRecord;
            setLiveRows((rows) => [record, ...rows.filter((row) => row.request_id !== record.request_id)].slice(0, liveLimit));
          },
          abort.signal,
        ),
      )
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setLiveError(`The live tail stopped: ${messageOf(error)}`);
      });
    return () => abort.abort();
  }, [live]);
  const pageRows = page.data?.data ?? [];
  const seen = new Set(liveRows.map((row) => row.request_id));
  const rows = before === undefined ? [...liveRows, ...pageRows.filter((row) => !seen.has(row.request_id))] : pageRows;
  return (
    <section>
      <div class="toolbar">
        <button type="button" onClick={() => page.reload()}>
          Refresh
        </button>
        <label class="check">
          <input type="checkbox" checked={live} onChange={(event) => setLive(event.currentTarget.checked)} /> Live tail
        </label>
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={page.data?.next_before == null} onClick={() => setCursors([...cursors, page.data?.next_before ?? ''])}>
          Older
        </button>
      </div>
      <ErrorNotice error={page.error ?? liveError} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Model</th>
              <th scope="col">Key</th>
              <th scope="col">Endpoint</th>
              <th scope="col" class="number">Status</th>
              <th scope="col" class="number">Tokens in/out</th>
              <th scope="col" class="number">Latency</th>
              <th scope="col" class="number">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.request_id} data-request-id={row.request_id}>
                <td>{showTime(row.created_at)}</td>
                <td class="id">{row.model}</td>
                <td class="id" title={row.key_id ?? undefined}>
                  {keyName(row.key_id)}
                </td>
                <td>{row.endpoint}</td>
                <td class={`number ${row.status >= 400 ? 'bad' : ''}`}>{row.status}</td>
                <td class="number">
                  {showNumber(row.input_uncached + row.cache_read + row.cache_write)} / {showNumber(row.output + row.reasoning)}
                </td>
                <td class="number">{row.duration_ms === null ? '—' : `${row.duration_ms} ms`}</td>
                <td class="number">{showUsd(row.cost_usd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !page.loading ? <p class="hint">No calls yet.</p> : null}
      </div>
    </section>
  );
}
