#!/usr/bin/env node
// The baseline every Node gateway is measured against: a bare pass-through proxy that parses and
// changes nothing. node:http in, a keep-alive node:http pool out, bodies piped both ways.
// PORT (default 18196) and UPSTREAM_URL (default http://127.0.0.1:18191); listens on 127.0.0.1 only.
import http from 'node:http';

const port = Number(process.env.PORT ?? 18196);
const upstream = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:18191');
const pool = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024, keepAliveMsecs: 60_000 });
// Hop-by-hop headers belong to one connection and are never forwarded.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

function endToEndHeaders(headers) {
  const kept = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name)) kept[name] = value;
  return kept;
}

const server = http.createServer((request, response) => {
  const forwarded = http.request(
    { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: endToEndHeaders(request.headers), agent: pool },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
      answer.pipe(response);
    },
  );
  forwarded.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `upstream error: ${error.message}` } }));
  });
  request.pipe(forwarded);
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;
server.requestTimeout = 0;
server.listen(port, '127.0.0.1', () => process.stdout.write(`node proxy on http://127.0.0.1:${port} -> ${upstream.origin}\n`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
