-- wrk script: POST a fixed body with extra headers; print one JSON line with throughput, latency
-- percentiles (µs resolution) and error counts (non-2xx answers count as errors).
-- Env: BENCH_BODY_FILE (request body), BENCH_HEADERS_FILE (optional; "Name: value" per line).
wrk.method = "POST"
local file = assert(io.open(os.getenv("BENCH_BODY_FILE"), "rb"))
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
local header_file = os.getenv("BENCH_HEADERS_FILE")
if header_file and header_file ~= "" then
  local handle = io.open(header_file, "r")
  if handle then
    for line in handle:lines() do
      local name, value = line:match("^%s*([^:%s]+)%s*:%s*(.-)%s*$")
      if name then wrk.headers[name] = value end
    end
    handle:close()
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCHJSON {"requests":%d,"duration_us":%d,"bytes":%d,"rps":%.1f,' ..
    '"lat_p50_us":%d,"lat_p90_us":%d,"lat_p99_us":%d,"lat_max_us":%d,"lat_mean_us":%.1f,' ..
    '"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d}\n',
    summary.requests, summary.duration, summary.bytes, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
