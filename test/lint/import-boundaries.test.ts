import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repositoryRoot });

/** Lints `code` as if it were the file at `filePath` (which need not exist), with the project's own config. */
async function problems(filePath: string, code: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repositoryRoot, filePath) });
  return (result?.messages ?? []).map((message) => ({ rule: message.ruleId, message: message.message }));
}

describe('the lint config enforces the design', () => {
  it('refuses a format importing a provider, and says why', async () => {
    const found = await problems('src/formats/chat/wrong.ts', "import { anthropicAdapter } from '../../providers/anthropic/index.js';\nexport const adapter = anthropicAdapter;\n");
    expect(found).toEqual([expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('translation goes only through ir/') })]);
  });

  it('refuses a provider importing a format', async () => {
    const found = await problems('src/providers/gemini/wrong.ts', "import { chatFormat } from '../../formats/chat/index.js';\nexport const format = chatFormat;\n");
    expect(found.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
  });

  it('refuses ir/ importing anything else of ours', async () => {
    const found = await problems('src/ir/wrong.ts', "import type { GatewayError } from '../errors/gateway-error.js';\nexport type Failure = GatewayError;\n");
    expect(found).toEqual([expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('imports nothing else of the gateway') })]);
  });

  it('refuses reading the environment outside config/, and allows it inside', async () => {
    const code = 'export const port = process.env.PORT;\n';
    const outside = await problems('src/http/wrong.ts', code);
    expect(outside).toEqual([expect.objectContaining({ rule: 'no-restricted-properties', message: expect.stringContaining('Only config/ reads the environment') })]);
    expect(await problems('src/config/right.ts', code)).toEqual([]);
  });

  it('refuses the simulator importing gateway code, but lets it use the JSON helpers', async () => {
    const wrong = await problems('src/sim/wrong.ts', "import { chatFormat } from '../formats/chat/index.js';\nexport const format = chatFormat;\n");
    expect(wrong.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    expect(await problems('src/sim/right.ts', "import { isRecord } from '../json/json-value.js';\nexport const check = isRecord;\n")).toEqual([]);
  });

  it('holds the simulator subfolders to the same rule, while they use the simulator root files', async () => {
    const wrong = await problems('src/sim/images/wrong.ts', "import { chatFormat } from '../../formats/chat/index.js';\nexport const format = chatFormat;\n");
    expect(wrong.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    const right = "import { isRecord } from '../../json/json-value.js';\nimport { sendJson } from '../send-json.js';\nexport const both = [isRecord, sendJson];\n";
    expect(await problems('src/sim/images/right.ts', right)).toEqual([]);
  });

  it('refuses pure translation code touching storage or the entry points', async () => {
    const storage = await problems('src/translation/wrong.ts', "import type { Storage } from '../storage/ports.js';\nexport type Stores = Storage;\n");
    expect(storage.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    const server = await problems('src/catalog/wrong.ts', "import type { GatewayServices } from '../endpoints/gateway-services.js';\nexport type Services = GatewayServices;\n");
    expect(server.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
  });

  it('refuses the console (a browser app) importing server code or Node, while it uses its own files and preact', async () => {
    const server = await problems('console/pages/wrong.tsx', "import { formatNanoUsd } from '../../src/catalog/pricing/decimal-usd.js';\nexport const format = formatNanoUsd;\n");
    expect(server).toEqual([expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('imports nothing of the server') })]);
    const node = await problems('console/wrong.ts', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n");
    expect(node.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    const right = "import { useState } from 'preact/hooks';\nimport { showUsd } from '../money.js';\nexport const both = [useState, showUsd];\n";
    expect(await problems('console/pages/right.tsx', right)).toEqual([]);
  });

  it('refuses the server importing the console app: it serves the built files', async () => {
    const found = await problems('src/endpoints/console/wrong.ts', "import { App } from '../../../console/app.js';\nexport const app = App;\n");
    expect(found.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
  });

  it('warns on a file past 400 lines', async () => {
    const code = Array.from({ length: 401 }, (_, index) => `export const value${index} = ${index};`).join('\n') + '\n';
    const found = await problems('src/catalog/long.ts', code);
    expect(found).toEqual([expect.objectContaining({ rule: 'max-lines' })]);
  });

  it('lets tests and their support files combine the parts', async () => {
    const code = "import { anthropicAdapter } from '../../providers/anthropic/index.js';\nexport const adapter = anthropicAdapter;\n";
    expect(await problems('src/formats/chat/combined.test.ts', code)).toEqual([]);
    expect(await problems('src/formats/chat/combined.test-support.ts', code)).toEqual([]);
  });
});
