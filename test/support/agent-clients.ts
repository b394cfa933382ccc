import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The coding agents the gateway is proven with, at the versions docs/compatibility.md names. */
export const agentClientVersions = { claudeCode: '2.1.330', codex: '0.169.0' } as const;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const prefix = path.join(root, '.tmp', 'agent-clients');

/**
 * Installs Claude Code and Codex CLI from npm into .tmp/agent-clients once (they ship native
 * binaries several hundred megabytes large, so they are kept out of the project's dependencies)
 * and returns their executables.
 */
export function agentClients(): { claude: string; codex: string } {
  const claude = path.join(prefix, 'node_modules', '.bin', 'claude');
  const codex = path.join(prefix, 'node_modules', '.bin', 'codex');
  if (!existsSync(claude) || !existsSync(codex)) {
    mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--prefix',
        prefix,
        `@anthropic-ai/claude-code@${agentClientVersions.claudeCode}`,
        `@openai/codex@${agentClientVersions.codex}`,
      ],
      { stdio: 'ignore', timeout: 600_000 },
    );
  }
  return { claude, codex };
}
