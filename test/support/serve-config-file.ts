import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from './spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The built package's command, as an operator runs it (`npm run build` first). */
export const switchyardBin = path.join(root, 'bin', 'switchyard.js');

/** `switchyard serve` on a config file, on a free port, in `cwd`, with no environment of the machine's. */
export function serveConfigFile(configFile: string, cwd: string): Promise<SpawnedGateway> {
  return spawnGateway(process.execPath, [switchyardBin, 'serve', '--config', configFile, '--port', '0'], {
    cwd,
    env: zeroConfigEnvironment(),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
}

/** Kills a served gateway outright, as a crash would (no shutdown runs), and waits until it is gone. */
export async function killOutright(gateway: SpawnedGateway): Promise<void> {
  gateway.process.kill('SIGKILL');
  await new Promise((resolve) => gateway.process.once('exit', resolve));
}

/** The spawned tests run the built package: say so plainly when it was not built. */
export function assertBuilt(): void {
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
}
