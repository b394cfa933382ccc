import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repositoryRoot });

/** The messages of the import rule for `code` linted as the file at `filePath` (which need not exist). */
async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repositoryRoot, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

/** One line importing `from`, used so the file lints clean but for the import. */
const importing = (from: string) => `import * as imported from '${from}';\nexport const used = imported;\n`;

describe('the lint config holds the folders to their places', () => {
  it('refuses one vendor folder importing another, in either direction and from any depth', async () => {
    expect(await refusals('src/providers/gemini/wrong.ts', importing('../anthropic/decode-error.js'))).toEqual([expect.stringContaining('never imports another vendor')]);
    expect(await refusals('src/providers/openai/chat/wrong.ts', importing('../../gemini/decode-error.js'))).toEqual([expect.stringContaining('never imports another vendor')]);
    expect(await refusals('src/providers/anthropic/right.ts', importing('../provider-adapter.js'))).toEqual([]);
  });

  it("keeps OpenAI's API families apart but for openai/shared/", async () => {
    expect(await refusals('src/providers/openai/images/wrong.ts', importing('../chat/build-request.js'))).toEqual([expect.stringContaining('share only openai/shared/')]);
    expect(await refusals('src/providers/openai/videos/wrong.ts', importing('../openai-adapters.js'))).toEqual([expect.stringContaining('share only openai/shared/')]);
    expect(await refusals('src/providers/openai/images/right.ts', importing('../shared/upstream-headers.js'))).toEqual([]);
  });

  it('refuses wire/ importing a format or a provider', async () => {
    expect(await refusals('src/wire/chat/wrong.ts', importing('../../providers/gemini/wire/gemini-usage.js'))).toEqual([expect.stringContaining('wire/ holds the wire types')]);
    expect(await refusals('src/wire/responses/wrong.ts', importing('../../formats/responses/index.js'))).toEqual([expect.stringContaining('wire/ holds the wire types')]);
  });

  it("keeps each governance concept standalone, composed only at governance/'s root", async () => {
    expect(await refusals('src/governance/rate-limits/wrong.ts', importing('../budgets/budget-meter.js'))).toEqual([expect.stringContaining('Each governance concept')]);
    expect(await refusals('src/governance/worst-case/wrong.ts', importing('../upstream-caps/upstream-caps.js'))).toEqual([expect.stringContaining('Each governance concept')]);
    const composing = "import * as budgets from './budgets/budget-meter.js';\nimport * as rates from './rate-limits/key-rate-limiter.js';\nexport const both = [budgets, rates];\n";
    expect(await refusals('src/governance/right.ts', composing)).toEqual([]);
  });

  it('keeps redis/ plain infrastructure: its settings, logger and errors only', async () => {
    expect(await refusals('src/redis/wrong.ts', importing('../governance/key-limits.js'))).toEqual([expect.stringContaining('redis/ is plain infrastructure')]);
    expect(await refusals('src/redis/right.ts', importing('../config/config-schema.js'))).toEqual([]);
  });

  it('refuses http/ plumbing knowing an endpoint or the assembly', async () => {
    expect(await refusals('src/http/wrong.ts', importing('../endpoints/gateway-services.js'))).toEqual([expect.stringContaining('http/ is the plumbing')]);
    expect(await refusals('src/http/wrong.ts', importing('../app/start-gateway.js'))).toEqual([expect.stringContaining('http/ is the plumbing')]);
  });

  it('refuses an endpoint importing the assembly, while it uses http/ and the services it is handed', async () => {
    expect(await refusals('src/endpoints/text/wrong.ts', importing('../../app/start-gateway.js'))).toEqual([expect.stringContaining('app/ assembles the endpoints')]);
    expect(await refusals('src/endpoints/text/right.ts', importing('../gateway-services.js'))).toEqual([]);
    expect(await refusals('src/endpoints/images/right.ts', importing('../../http/error-response.js'))).toEqual([]);
  });

  it('refuses a part importing an entry point', async () => {
    for (const entry of ['../http/request-headers.js', '../endpoints/gateway-services.js', '../app/start-gateway.js', '../cli/main.js']) {
      expect(await refusals('src/media/wrong.ts', importing(entry))).toEqual([expect.stringContaining('Only the entry points')]);
    }
    expect(await refusals('src/governance/budgets/wrong.ts', importing('../../http/with-limit-headers.js'))).toEqual([expect.stringContaining('Only the entry points')]);
  });
});
