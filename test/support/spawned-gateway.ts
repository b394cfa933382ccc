import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnedGateway {
  readonly process: ChildProcess;
  /** The address the gateway printed once it listened. */
  readonly url: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** SIGTERM, then the exit code once it has drained. */
  stop(): Promise<number | null>;
}

/** What a zero-config start reads to find a cloud: its region or project, credentials and endpoint overrides. */
const cloudVariables = /^(?:AWS_|AZURE_OPENAI_|GOOGLE_CLOUD_|GOOGLE_APPLICATION_CREDENTIALS$|GOOGLE_VERTEX_BASE_URL$|ANTHROPIC_VERTEX_|CLOUD_ML_REGION$|CLOUDSDK_CONFIG$)/;

/**
 * Clears what would change a zero-config start: a config file, a database, real provider keys and
 * the variables that make a cloud discovered.
 */
export function zeroConfigEnvironment(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of ['SWITCHYARD_CONFIG', 'SWITCHYARD_LOG_FORMAT', 'DATABASE_URL', 'PORT', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY']) {
    delete environment[name];
  }
  for (const name of Object.keys(environment)) if (cloudVariables.test(name)) delete environment[name];
  return { ...environment, ...overrides };
}

/**
 * Starts `command args` (a `switchyard serve`) and resolves once stdout shows the listening address,
 * found by `urlPattern`'s first group.
 */
export function spawnGateway(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; urlPattern: RegExp; startTimeoutMs?: number },
): Promise<SpawnedGateway> {
  const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A gateway that never listened must not outlive the test that waited for it.
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start:\n${output}`));
    }, options.startTimeoutMs ?? 30_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${output}`));
    };
    child.once('exit', onExit);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      output += chunk.toString('utf8');
      const url = options.urlPattern.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        process: child,
        url,
        stdout: () => stdout,
        stop: () => stopProcess(child),
      });
    });
  });
}

function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
