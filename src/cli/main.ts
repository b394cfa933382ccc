import { inspect, parseArgs } from 'node:util';
import { ConfigError, configFilePath, loadConfig } from '../config/load-config.js';
import { processEnvironment } from '../config/process-environment.js';
import { innermostMessage, oneLine, StartFailure } from '../app/start-failure.js';
import { runKeysCommand } from './keys-command.js';
import { runLedgerCommand } from './ledger-command.js';
import { runServeCommand } from './serve-command.js';
import { runSimCommand } from './sim-command.js';
import { runMigrateCommand } from './migrate-command.js';
import { runUsageCommand } from './usage-command.js';

const usage = `switchyard — a gateway for generative models

Usage:
  switchyard serve [--config FILE] [--port N]      run the gateway (npm start -- --port N from a clone)
  switchyard sim [--port N] [--host H]             run the provider simulator alone
  switchyard keys create --name NAME [--models a,b] [--endpoints chat,messages,...]
                         [--budget-usd X] [--daily-budget-usd X] [--monthly-budget-usd X]
                         [--rpm N] [--tpm N] [--concurrency N] [--expires YYYY-MM-DD]
                         [--admin] [--json]
  switchyard keys list [--json]
  switchyard keys revoke ID
  switchyard migrate                               bring the database schema up to date
  switchyard usage [--key ID|NAME] [--since YYYY-MM-DD] [--json]
  switchyard ledger export [--since DATE] [--until DATE] [--key ID] [--model M] [--format csv|jsonl]
                                                   every ledger entry, oldest first, to stdout

Every command takes --config FILE (or SWITCHYARD_CONFIG); DATABASE_URL, REDIS_URL, PORT and
SWITCHYARD_LOG_FORMAT (auto, json or readable) override it. A running serve reloads providers,
models, prices and routing from the file on SIGHUP. A command that fails says why in one line;
--debug adds the stack.`;

export async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // An unknown flag or a missing value: said in one line, as any other mistake on the command line.
    if (!(error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) throw error;
    console.error(`switchyard: ${error.message.split('\n')[0]}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    console.log(usage);
    return command === undefined && !values.help ? 1 : 0;
  }
  try {
    const port = values.port === undefined ? undefined : parsePort(values.port);
    const loadOptions = { environment: processEnvironment(), ...(values.config ? { file: values.config } : {}), ...(port !== undefined ? { port } : {}) };
    // `switchyard serve 8080` (or `npm start 8080`) would otherwise start on another port without a word.
    if (commandsWithoutArguments.has(command) && rest.length > 0) throw new UsageError(`${command} takes no argument '${rest[0]}' (a port is given as --port N)`);
    switch (command) {
      case 'serve':
        return await runServeCommand(loadConfig(loadOptions), process.stdout.isTTY === true, {
          file: configFilePath(loadOptions),
          load: () => loadConfig(loadOptions),
        });
      case 'sim':
        return await runSimCommand({ port: port ?? 8788, host: values.host ?? '127.0.0.1' });
      case 'migrate':
        return await runMigrateCommand(loadConfig(loadOptions));
      case 'keys':
        return await runKeysCommand(loadConfig(loadOptions), rest, values);
      case 'usage':
        return await runUsageCommand(loadConfig(loadOptions), values);
      case 'ledger':
        return await runLedgerCommand(loadConfig(loadOptions), rest, values);
      default:
        throw new UsageError(`unknown command '${command}' (switchyard help lists the commands)`);
    }
  } catch (error) {
    console.error(values.debug ? describeWithStack(error) : `switchyard: ${describeFailure(error)}`);
    return error instanceof ConfigError || error instanceof UsageError ? 2 : 1;
  }
}

/**
 * One line: an operator's mistake or a start that could not be done says what and where; anything
 * else is a bug, said in one line too, with the way to see its stack.
 */
function describeFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof UsageError || error instanceof StartFailure) return oneLine(error.message);
  return `${innermostMessage(error)} (run again with --debug for the stack)`;
}

/** The stack and every cause, as Node prints them, for a bug report. */
function describeWithStack(error: unknown): string {
  return `switchyard: ${inspect(error, { depth: 6 })}`;
}

const commandsWithoutArguments: ReadonlySet<string> = new Set(['serve', 'sim', 'migrate', 'usage']);

/** A mistake on the command line, reported without a stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: expected 0-65535, got '${value}'`);
  return port;
}

function parseCommandLine(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      models: { type: 'string' },
      endpoints: { type: 'string' },
      'budget-usd': { type: 'string' },
      'daily-budget-usd': { type: 'string' },
      'monthly-budget-usd': { type: 'string' },
      rpm: { type: 'string' },
      tpm: { type: 'string' },
      concurrency: { type: 'string' },
      expires: { type: 'string' },
      admin: { type: 'boolean', default: false },
      key: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      model: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      debug: { type: 'boolean', default: false },
    },
  });
}
