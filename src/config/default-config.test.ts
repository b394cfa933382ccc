import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bedrockProfilePrefix } from './cloud-starters.js';
import { defaultConfig } from './default-config.js';
import { loadConfig } from './load-config.js';

interface StarterModel {
  readonly id: string;
  readonly aliases?: readonly string[];
  readonly routes: readonly { provider: string; model: string }[];
}

/** A home without an AWS or gcloud file, so only what a test names is found. */
const emptyHome = { HOME: '/nonexistent-switchyard-home' };
const noFiles = (): boolean => false;

function starters(environment: Record<string, string>, files: readonly string[] = []) {
  const config = defaultConfig({ ...emptyHome, ...environment }, (file) => files.includes(file)) as { providers: Record<string, Record<string, unknown>>; models: StarterModel[] };
  const real = config.models.filter((model) => !model.id.startsWith('sim-'));
  return {
    providers: Object.fromEntries(Object.entries(config.providers).filter(([name]) => !name.startsWith('sim-'))),
    routes: Object.fromEntries(real.map((model) => [model.id, model.routes.map((route) => `${route.provider}:${route.model}`)])),
  };
}

const awsKeys = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };
const sonnet = (prefix: string) => `bedrock:${prefix}.anthropic.claude-sonnet-4-5-20250929-v1:0`;

describe('the default configuration on AWS', () => {
  it('adds a Bedrock provider in the region and Claude through its cross-region profile, under its own id and the well-known one', () => {
    expect(starters({ AWS_REGION: 'us-east-1', ...awsKeys })).toEqual({
      providers: { bedrock: { type: 'bedrock', region: 'us-east-1' } },
      routes: { 'claude-sonnet-4-5': [sonnet('us')], 'bedrock/claude-sonnet-4-5': [sonnet('us')] },
    });
  });

  it('picks the profile from the region: a geography AWS defines for the model, else the global profile', () => {
    expect(Object.fromEntries(['us-west-2', 'eu-central-1', 'ap-northeast-1', 'ap-southeast-2', 'ap-south-1', 'sa-east-1', 'ca-central-1', 'us-gov-west-1'].map((region) => [region, bedrockProfilePrefix(region)]))).toEqual({
      'us-west-2': 'us',
      'eu-central-1': 'eu',
      'ap-northeast-1': 'jp',
      'ap-southeast-2': 'au',
      'ap-south-1': 'global',
      'sa-east-1': 'global',
      'ca-central-1': 'global',
      'us-gov-west-1': 'global',
    });
    expect(starters({ AWS_DEFAULT_REGION: 'eu-west-3', AWS_PROFILE: 'work' }).routes['bedrock/claude-sonnet-4-5']).toEqual([sonnet('eu')]);
  });

  it('is triggered by each kind of credential the default chain finds without a network call, and by none without a region', () => {
    const found = (environment: Record<string, string>, files: readonly string[] = []) => 'bedrock' in starters({ AWS_REGION: 'eu-west-1', ...environment }, files).providers;
    expect(found(awsKeys)).toBe(true);
    expect(found({ AWS_PROFILE: 'dev' })).toBe(true);
    expect(found({ AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key' })).toBe(true);
    expect(found({ AWS_WEB_IDENTITY_TOKEN_FILE: '/var/run/secrets/token', AWS_ROLE_ARN: 'arn:aws:iam::1:role/r' })).toBe(true);
    expect(found({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/id' })).toBe(true);
    expect(found({}, [path.join(emptyHome.HOME, '.aws', 'credentials')])).toBe(true);
    expect(found({ AWS_SHARED_CREDENTIALS_FILE: '/etc/aws/credentials' }, ['/etc/aws/credentials'])).toBe(true);
    // An access key without its secret, or nothing at all (an instance role is not visible from here).
    expect(found({ AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toBe(false);
    expect(found({})).toBe(false);
    expect('bedrock' in starters(awsKeys).providers).toBe(false);
  });

  it('sends a Bedrock API key as the provider key and honours the endpoint overrides the AWS SDKs read', () => {
    expect(starters({ AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'ABSKkey', AWS_ENDPOINT_URL: 'http://all.test', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://bedrock.test' }).providers).toEqual({
      bedrock: { type: 'bedrock', region: 'us-west-2', api_key: 'ABSKkey', base_url: 'http://bedrock.test' },
    });
    expect(starters({ AWS_REGION: 'us-west-2', ...awsKeys, AWS_ENDPOINT_URL: 'http://all.test' }).providers.bedrock).toMatchObject({ base_url: 'http://all.test' });
    expect(starters({ AWS_REGION: 'us-west-2', ...awsKeys, AWS_ENDPOINT_URL: 'http://all.test', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' }).providers.bedrock).not.toHaveProperty('base_url');
  });
});

describe('the default configuration on Google Cloud', () => {
  const gemini = 'vertex:gemini-2.5-flash';
  const claude = 'vertex:claude-sonnet-4-5@20250929';

  it('adds a Vertex AI provider on the global location with the key file named, and Gemini and Claude under their own ids and the well-known ones', () => {
    expect(starters({ GOOGLE_CLOUD_PROJECT: 'acme', GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json' })).toEqual({
      providers: { vertex: { type: 'vertex', project: 'acme', location: 'global', credentials_file: '/keys/sa.json' } },
      routes: { 'claude-sonnet-4-5': [claude], 'gemini-2.5-flash': [gemini], 'vertex/gemini-2.5-flash': [gemini], 'vertex/claude-sonnet-4-5': [claude] },
    });
  });

  it("finds gcloud's Application Default Credentials file where Google's libraries look, and leaves it to them", () => {
    const adc = path.join(emptyHome.HOME, '.config', 'gcloud', 'application_default_credentials.json');
    expect(starters({ GOOGLE_CLOUD_PROJECT: 'acme' }, [adc]).providers).toEqual({ vertex: { type: 'vertex', project: 'acme', location: 'global' } });
    expect(starters({ GOOGLE_CLOUD_PROJECT: 'acme', CLOUDSDK_CONFIG: '/gcloud' }, ['/gcloud/application_default_credentials.json']).providers).toHaveProperty('vertex');
    expect(starters({ GOOGLE_CLOUD_PROJECT: 'acme' }).providers).toEqual({});
    expect(starters({ GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json' }).providers).toEqual({});
  });

  it("takes the location from GOOGLE_CLOUD_LOCATION, else Claude Code's CLOUD_ML_REGION, and the project from ANTHROPIC_VERTEX_PROJECT_ID too", () => {
    const vertex = (environment: Record<string, string>) => starters({ GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json', ...environment }).providers.vertex;
    expect(vertex({ GOOGLE_CLOUD_PROJECT: 'acme', CLOUD_ML_REGION: 'us-east5' })).toMatchObject({ location: 'us-east5' });
    expect(vertex({ GOOGLE_CLOUD_PROJECT: 'acme', CLOUD_ML_REGION: 'us-east5', GOOGLE_CLOUD_LOCATION: 'europe-west1' })).toMatchObject({ location: 'europe-west1' });
    expect(vertex({ ANTHROPIC_VERTEX_PROJECT_ID: 'claude-project' })).toMatchObject({ project: 'claude-project' });
  });

  it("honours the base URL overrides of Google's Gen AI SDKs and of Anthropic's Vertex SDK", () => {
    const vertex = (environment: Record<string, string>) => starters({ GOOGLE_CLOUD_PROJECT: 'acme', GOOGLE_APPLICATION_CREDENTIALS: '/k.json', ...environment }).providers.vertex;
    expect(vertex({ ANTHROPIC_VERTEX_BASE_URL: 'http://anthropic-vertex.test/v1' })).toMatchObject({ base_url: 'http://anthropic-vertex.test/v1' });
    expect(vertex({ ANTHROPIC_VERTEX_BASE_URL: 'http://anthropic-vertex.test/v1', GOOGLE_VERTEX_BASE_URL: 'http://google-vertex.test' })).toMatchObject({ base_url: 'http://google-vertex.test' });
  });
});

describe('the default configuration on Azure', () => {
  it('adds an Azure provider on the v1 API with its key and the deployment AZURE_OPENAI_DEPLOYMENT names', () => {
    expect(starters({ AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com/', AZURE_OPENAI_API_KEY: 'azure-key', AZURE_OPENAI_DEPLOYMENT: 'prod-chat' })).toEqual({
      providers: { azure: { type: 'azure', base_url: 'https://acme.openai.azure.com/openai/v1', api_key: 'azure-key' } },
      routes: { 'azure/prod-chat': ['azure:prod-chat'] },
    });
  });

  it('names the gpt-4.1-mini deployment by default, and leaves a provider without a key to Entra ID', () => {
    expect(starters({ AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com/openai' })).toEqual({
      providers: { azure: { type: 'azure', base_url: 'https://acme.openai.azure.com/openai/v1' } },
      routes: { 'azure/gpt-4.1-mini': ['azure:gpt-4.1-mini'] },
    });
    expect(starters({ AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com/openai/v1/' }).providers.azure).toMatchObject({ base_url: 'https://acme.openai.azure.com/openai/v1' });
  });
});

describe('the default configuration with vendors and clouds together', () => {
  const everything = {
    OPENAI_API_KEY: 'sk-openai',
    ANTHROPIC_API_KEY: 'sk-ant',
    GEMINI_API_KEY: 'gemini-key',
    AWS_REGION: 'us-east-2',
    ...awsKeys,
    GOOGLE_CLOUD_PROJECT: 'acme',
    GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json',
    AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com',
    AZURE_OPENAI_API_KEY: 'azure-key',
  };

  it("keeps every public id distinct: the vendor's API first on the well-known id, each cloud after it as a fallback and under its own id", () => {
    expect(starters(everything).routes).toEqual({
      'gpt-4.1-mini': ['openai:gpt-4.1-mini'],
      'claude-sonnet-4-5': ['anthropic:claude-sonnet-4-5-20250929', sonnet('us'), 'vertex:claude-sonnet-4-5@20250929'],
      'gemini-2.5-flash': ['gemini:gemini-2.5-flash', 'vertex:gemini-2.5-flash'],
      'bedrock/claude-sonnet-4-5': [sonnet('us')],
      'vertex/gemini-2.5-flash': ['vertex:gemini-2.5-flash'],
      'vertex/claude-sonnet-4-5': ['vertex:claude-sonnet-4-5@20250929'],
      'azure/gpt-4.1-mini': ['azure:gpt-4.1-mini'],
    });
  });

  it('is a valid configuration a start accepts', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'switchyard-home-'));
    mkdirSync(path.join(home, '.aws'));
    writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\n');
    const config = loadConfig({ environment: { ...everything, HOME: home } });
    expect(Object.keys(config.providers).filter((name) => !name.startsWith('sim-'))).toEqual(['openai', 'anthropic', 'gemini', 'bedrock', 'vertex', 'azure']);
    expect(config.models.find((model) => model.id === 'claude-sonnet-4-5')?.aliases).toEqual(['claude-sonnet-4-5-20250929']);
  });

  it('finds no cloud in an environment without their variables', () => {
    expect(starters({}, []).providers).toEqual({});
    expect(defaultConfig({ ...emptyHome }, noFiles)).toEqual(defaultConfig({ ...emptyHome, AWS_ACCESS_KEY_ID: 'AKIA', AZURE_OPENAI_API_KEY: 'k' }, noFiles));
  });
});
