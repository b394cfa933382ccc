import tseslint from 'typescript-eslint';

/**
 * The import directions of the design (docs/architecture.md), checked on every lint. Tests and
 * their support files are exempt: they exercise the parts together on purpose.
 */
const testFiles = ['**/*.test.ts', '**/*.test-support.ts'];

/** One `no-restricted-imports` rule: these import paths, refused with a message saying why. */
function refuse(...groups) {
  return { patterns: groups.map(([group, message]) => ({ group, message })) };
}

/** Import paths naming a top-level folder of src/, from any depth. */
const folder = (...names) => names.flatMap((name) => [`**/${name}`, `**/${name}/**`]);

const translationMessage = 'formats/ and providers/ never import each other: translation goes only through ir/, so adding a format or a provider is one folder, never N × M translators.';
const outsideIr = [['../*', '../../*'], 'ir/ is the neutral representation every format and provider meets at: it imports nothing else of the gateway, so it stays neutral.'];
const formatsToProviders = [folder('providers'), translationMessage];
const providersToFormats = [folder('formats'), translationMessage];
const wireToEither = [folder('formats', 'providers'), 'wire/ holds the wire types of the client formats, shared by formats/ (which answers in them) and providers/ (which passes them on): it imports neither, so neither drags the other in.'];
const toEntryPoints = [
  folder('app', 'cli', 'endpoints', 'http'),
  'Only the entry points (app/, endpoints/, http/, cli/) deal in HTTP and the process; a part that imported them would drag both into code that is tested and reused without them.',
];
const httpToEndpoints = [folder('app', 'cli', 'endpoints'), 'http/ is the plumbing every endpoint uses (bodies, headers, answers, authentication): it knows no endpoint and no assembly, so an endpoint can be added without touching it.'];
const endpointsToApp = [folder('app', 'cli'), 'app/ assembles the endpoints, reload and drain into a running gateway; an endpoint that imported it would depend on the whole gateway, not on the services it is handed (endpoints/gateway-services.ts).'];
const toStorage = [folder('storage'), 'Translation and wire code is pure: it turns bytes into bytes and never touches the database, so it stays fast and testable without one.'];
const governanceMessage = 'Each governance concept (rate limits, budgets, upstream caps, worst cases) stands alone; only the files at governance/\'s root compose them, so each can be read, tested and replaced by itself.';
const governanceSiblings = [['../rate-limits', '../rate-limits/*', '../budgets', '../budgets/*', '../upstream-caps', '../upstream-caps/*', '../worst-case', '../worst-case/*'], governanceMessage];
const redisMessage = 'redis/ is plain infrastructure (a connection, scripts, outage handling): it imports no part of the gateway but its settings, logger and errors, so every part that shares state through Redis builds on it, never the reverse.';
const redisOutside = [['../*', '!../config', '!../config/*', '!../logging', '!../logging/*', '!../errors', '!../errors/*'], redisMessage];
const vendorMessage = 'A vendor\'s folder under providers/ never imports another vendor\'s: what two vendors share lives at providers/\'s root, so a vendor can be added or removed as one folder.';
const vendorFolders = ['openai', 'anthropic', 'gemini', 'bedrock', 'bfl', 'runway', 'fal', 'replicate', 'minimax'];
// Cloud platforms host several vendors' models and build on their folders; a vendor never imports a platform.
const platformFolders = ['vertex'];
const otherVendors = (own) => [[...vendorFolders, ...platformFolders].filter((name) => name !== own).flatMap((name) => [`**/providers/${name}`, `**/providers/${name}/**`, `../${name}`, `../${name}/**`, `../../${name}`, `../../${name}/**`]), vendorMessage];
const openAiMessage = 'OpenAI\'s API families (chat/, responses/, images/, videos/) share only openai/shared/; openai-adapters.ts at the vendor\'s root assembles them into adapters.';
const openAiSiblings = [['../chat', '../chat/*', '../responses', '../responses/*', '../images', '../images/*', '../videos', '../videos/*', '../openai-adapters.js', '../index.js'], openAiMessage];
const consoleMessage = 'The console is a browser app that talks to the gateway only over HTTP (the admin API and /v1): it imports nothing of the server, so it can never bundle server code or secrets, and nothing of Node.';
const consoleOutside = [['**/src', '**/src/**', '../../*', 'node:*', '@hono/*', 'hono', 'hono/*'], consoleMessage];
const simMessage = 'The simulator stands in for a vendor\'s servers: it shares no code with the gateway (but JSON helpers), so it cannot agree with the gateway by accident.';
const simOutside = [['../*', '../../*', '!../json', '!../json/*'], simMessage];
/** The simulator's own subfolders (images/) sit one level deeper: the simulator root is `../`. */
const simSubfolderOutside = [['../../*', '../../../*', '!../../json', '!../../json/*'], simMessage];
const toConsole = [['../../console/*', '../../../console/*', '../../../../console/*'], 'The server serves the console\'s built files; it never imports the browser app.'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.tmp/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', ...testFiles],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only config/ reads the environment, so every setting a deployment can change is validated and documented in one place.' },
      ],
    },
  },
  { files: ['src/ir/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(outsideIr)] } },
  { files: ['src/formats/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(formatsToProviders, toEntryPoints, toStorage)] } },
  { files: ['src/providers/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(providersToFormats, toEntryPoints, toStorage)] } },
  ...vendorFolders.map((vendor) => ({
    files: [`src/providers/${vendor}/**/*.ts`],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(providersToFormats, toEntryPoints, toStorage, otherVendors(vendor))] },
  })),
  {
    files: ['src/providers/openai/{chat,responses,images,videos}/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(providersToFormats, toEntryPoints, toStorage, otherVendors('openai'), openAiSiblings)] },
  },
  { files: ['src/wire/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(wireToEither, toEntryPoints, toStorage)] } },
  {
    files: ['src/{translation,passthrough,call,upstream,tokens,json,errors}/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(toEntryPoints, toStorage)] },
  },
  {
    files: ['src/{catalog,routing,keys,metering,storage,stored-responses,media,logging,config,observability}/**/*.ts', 'src/governance/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(toEntryPoints)] },
  },
  { files: ['src/governance/*/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(toEntryPoints, governanceSiblings)] } },
  { files: ['src/redis/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(redisOutside)] } },
  { files: ['src/http/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(httpToEndpoints, toConsole)] } },
  { files: ['src/endpoints/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(endpointsToApp, toConsole)] } },
  { files: ['src/sim/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(simOutside)] } },
  { files: ['src/sim/*/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(simSubfolderOutside)] } },
  { files: ['console/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', refuse(consoleOutside)] } },
  { files: ['src/{app,cli}/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(toConsole)] } },
  {
    files: ['src/cli/**', 'scripts/**', 'bin/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
);
