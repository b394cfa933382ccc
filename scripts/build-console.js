#!/usr/bin/env node
/**
 * Builds the operator console (console/) into dist/console/: one script and one stylesheet,
 * bundled with everything they use (no CDN at run time), named by a hash of their content so the
 * gateway can let browsers cache them for good, and an index.html that names them.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'console');
rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: { app: path.join(root, 'console', 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => path.relative(out, path.resolve(root, file)).split(path.sep).join('/'));
const script = outputs.find((file) => file.endsWith('.js'));
const style = outputs.find((file) => file.endsWith('.css'));
if (script === undefined || style === undefined) throw new Error(`console build made no script or no stylesheet: ${outputs.join(', ')}`);
const page = readFileSync(path.join(root, 'console', 'index.html'), 'utf8')
  .replace('%SCRIPT%', `/console/${script}`)
  .replace('%STYLE%', `/console/${style}`);
writeFileSync(path.join(out, 'index.html'), page);
copyFileSync(path.join(root, 'console', 'favicon.svg'), path.join(out, 'favicon.svg'));
