#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli/main.js and everything it imports) into dist/bundle/gateway/:
 * a start then reads a few files instead of some thousand (Node's ES module loader costs about half
 * a millisecond of CPU per file, most of a start's time). What is imported on first use stays on
 * first use: each dynamic import() becomes a chunk of its own.
 *
 * Left out of the bundle, loaded from node_modules as they are: native modules (better-sqlite3,
 * sharp), what is loaded on first use only and is large (the AWS SDK, Azure's identity library, pg,
 * ioredis, mediabunny, the pricing dataset, busboy), and what is loaded with
 * `require` (yaml; undici's dispatcher, upstream/undici-agent.ts; the AWS SDK's Smithy parts,
 * SigV4 signing and the event-stream codec, whose CommonJS builds require Node's crypto), which
 * the bundler leaves as it is.
 *
 * The bundle sits two folders below dist/, as the compiled files it replaces do, so paths found
 * from a module's own place (dist/console/) are the same from both.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'bundle', 'gateway');
rmSync(path.join(root, 'dist', 'bundle'), { recursive: true, force: true });

export const notBundled = [
  'better-sqlite3',
  'better-sqlite3-13',
  'sharp',
  '@aws-sdk/*',
  '@smithy/*',
  '@azure/*',
  'pg',
  'ioredis',
  'mediabunny',
  '@pydantic/genai-prices',
  'busboy',
  'yaml',
  // Vertex AI's Application Default Credentials: loaded by the first call to Vertex, never at start.
  'google-auth-library',
];

await build({
  // young-generation.js stands alone so bin/switchyard.js can run it before the rest is loaded.
  entryPoints: { main: path.join(root, 'dist', 'cli', 'main.js'), 'young-generation': path.join(root, 'dist', 'cli', 'young-generation.js') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: ['node20'],
  outdir: out,
  chunkNames: '[name]-[hash]',
  external: notBundled,
  // No keepNames: it wraps every named function, closures made per call included, in a call that
  // sets its name. No class of the gateway is renamed by the bundle (errors name themselves).
  sourcemap: 'linked',
  // CommonJS packages in the bundle (pino, prom-client) call require() for Node's modules.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
