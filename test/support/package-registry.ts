import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PackageRegistry {
  /** The registry's address, for npm's `--registry`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A registry on loopback that publishes one packed tarball and hands every other request to the
 * real registry (`upstream`), so `npm install <name>` installs it as a user installs a published
 * package. The path matters: npm follows a dependency's npm-shrinkwrap.json only when the
 * registry's metadata says the version has one (`_hasShrinkwrap`, which npm's registry works out
 * from the published tarball, as done here); a tarball installed by its path never says so, and
 * its shrinkwrap is ignored.
 */
export async function startPackageRegistry(tarball: string, upstream: string): Promise<PackageRegistry> {
  const bytes = readFileSync(tarball);
  const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as { name: string; version: string };
  const entries = (await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 })).stdout.split('\n');
  const hasShrinkwrap = entries.includes('package/npm-shrinkwrap.json');
  const tarballPath = `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`;
  const upstreamBase = upstream.replace(/\/+$/, '');

  const server = createServer((request, response) => {
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url === `/${manifest.name}`) {
      const version = {
        ...manifest,
        _id: `${manifest.name}@${manifest.version}`,
        _hasShrinkwrap: hasShrinkwrap,
        dist: {
          tarball: `${address}${tarballPath}`,
          integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
          shasum: createHash('sha1').update(bytes).digest('hex'),
        },
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: version } }));
    } else if (request.url === tarballPath) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(bytes);
    } else {
      forward(request, response, upstreamBase);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Another package's metadata or tarball, streamed from the real registry as it answers. */
function forward(request: IncomingMessage, response: ServerResponse, upstreamBase: string): void {
  fetch(`${upstreamBase}${request.url ?? '/'}`, { headers: { accept: request.headers.accept ?? '*/*' } })
    .then((answer) => {
      // fetch has already undone any compression: the length and encoding it was sent with no longer hold.
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
      if (answer.body === null) response.end();
      // A body cut short ends the answer cut short too, so npm sees the failure instead of a short file.
      else pipeline(Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>), response, () => {});
    })
    .catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
}
