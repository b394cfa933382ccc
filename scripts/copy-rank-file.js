#!/usr/bin/env node
/**
 * Copies the o200k rank file (src/tokens/o200k-ranks.bin, which the token counter reads on first
 * use) to dist/tokens/, beside the compiled loader: tsc writes only what it compiles. The bundle,
 * dist/bundle/gateway/, finds it there too (src/tokens/load-encoder.ts).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
mkdirSync(path.join(root, 'dist', 'tokens'), { recursive: true });
copyFileSync(path.join(root, 'src', 'tokens', 'o200k-ranks.bin'), path.join(root, 'dist', 'tokens', 'o200k-ranks.bin'));
