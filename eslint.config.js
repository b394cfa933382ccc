import tseslint from 'typescript-eslint';

/**
 * The import directions of the design (docs/architecture.md), checked on every lint. Tests and
 * their support files are exempt: they exercise the parts together on purpose.
 */
const testFiles = ['**/*.test.ts', '**/*test-support.ts'];

/** One `no-restricted-imports` rule: these import paths, refused with a message saying why. */
function refuse(...groups) {
  return { patterns: groups.map(([group, message]) => ({ group, message })) };
}

const outsideIr = [['../*', '../../*'], 'ir/ is the neutral representation every format and provider meets at: it imports nothing else of the gateway, so it stays neutral.'];
const formatsToProviders = [['**/providers', '**/providers/**'], 'formats/ and providers/ never import each other: translation goes only through ir/, so adding a format or a provider is one folder, never N × M translators.'];
const providersToFormats = [['**/formats', '**/formats/**'], 'formats/ and providers/ never import each other: translation goes only through ir/, so adding a format or a provider is one folder, never N × M translators.'];
const toServer = [['**/server', '**/server/**', '**/cli', '**/cli/**'], 'Only the entry points (server/, cli/) assemble the parts; a part that imports them would drag HTTP and process handling into code that is tested and reused without them.'];
const toStorage = [['**/storage', '**/storage/**'], 'Translation and wire code is pure: it turns bytes into bytes and never touches the database, so it stays fast and testable without one.'];
const consoleMessage = 'The console is a browser app that talks to the gateway only over HTTP (the admin API and /v1): it imports nothing of the server, so it can never bundle server code or secrets, and nothing of Node.';
const consoleOutside = [['**/src', '**/src/**', '../../*', 'node:*', '@hono/*', 'hono', 'hono/*'], consoleMessage];
const simMessage = 'The simulator stands in for a vendor\'s servers: it shares no code with the gateway (but JSON helpers), so it cannot agree with the gateway by accident.';
const simOutside = [['../*', '../../*', '!../json', '!../json/*'], simMessage];
/** The simulator's own subfolders (images/) sit one level deeper: the simulator root is `../`. */
const simSubfolderOutside = [['../../*', '../../../*', '!../../json', '!../../json/*'], simMessage];

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
  { files: ['src/formats/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(formatsToProviders, toServer, toStorage)] } },
  { files: ['src/providers/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(providersToFormats, toServer, toStorage)] } },
  {
    files: ['src/{wire,translation,passthrough,call,upstream,tokens,json,errors}/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(toServer, toStorage)] },
  },
  {
    files: ['src/{catalog,routing,keys,metering,limits,budgets,redis,upstream-caps,storage,stored-responses,media,logging,config,observability}/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse(toServer)] },
  },
  { files: ['src/sim/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(simOutside)] } },
  { files: ['src/sim/*/**/*.ts'], ignores: testFiles, rules: { 'no-restricted-imports': ['error', refuse(simSubfolderOutside)] } },
  { files: ['console/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', refuse(consoleOutside)] } },
  {
    files: ['src/server/**/*.ts', 'src/cli/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', refuse([['../../console/*', '../../../console/*', '../../../../console/*'], 'The server serves the console\'s built files; it never imports the browser app.'])] },
  },
  {
    files: ['src/cli/**', 'scripts/**', 'bin/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
);
