import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

type Environment = Readonly<Record<string, string | undefined>>;

/** Whether a file is there; the real file system unless a test hands in another. */
export type FileExists = (file: string) => boolean;

/** A route as the config file writes it. */
export interface StarterRoute {
  readonly provider: string;
  readonly model: string;
}

/**
 * The cloud providers a start without a file finds in the environment: each provider, the models
 * under the cloud's own public ids (`bedrock/…`, `vertex/…`, `azure/…`, which never collide with a
 * vendor's), and the routes each cloud adds to the well-known Claude and Gemini ids.
 */
export interface CloudStarters {
  readonly providers: Record<string, unknown>;
  readonly models: unknown[];
  readonly claudeRoutes: StarterRoute[];
  readonly geminiRoutes: StarterRoute[];
}

/** Claude Sonnet 4.5's id on Bedrock, after the cross-region profile's prefix. */
const bedrockClaude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
/** Vertex writes a partner model's version after `@`. */
const vertexClaude = 'claude-sonnet-4-5@20250929';
const vertexGemini = 'gemini-2.5-flash';
/** The deployment an Azure starter names when AZURE_OPENAI_DEPLOYMENT is not set. */
export const defaultAzureDeployment = 'gpt-4.1-mini';

/**
 * The cross-region inference profile to call Claude through from a region: Claude Sonnet 4.5 is
 * offered on Bedrock only through profiles (not on demand in one region). AWS defines a US, an EU,
 * a Japan and an Australia geography for it; from any other region (other Asia Pacific, Canada,
 * South America, …) the global profile, which routes to every commercial region.
 */
export function bedrockProfilePrefix(region: string): string {
  if (/^us-(?:east|west)-\d+$/.test(region)) return 'us';
  if (/^eu-/.test(region)) return 'eu';
  if (region === 'ap-northeast-1' || region === 'ap-northeast-3') return 'jp';
  if (region === 'ap-southeast-2' || region === 'ap-southeast-4') return 'au';
  return 'global';
}

/** A variable counts when it holds something: an empty one is as good as unset. */
const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * AWS credentials the SDK's default chain would find without a network call: keys or a Bedrock API
 * key in the environment, a named profile, a web identity token (EKS), a container's credentials
 * endpoint (ECS), or the shared credentials file. An EC2 instance role is found only by asking the
 * instance metadata service, so it alone does not trigger discovery.
 */
function awsCredentialsVisible(environment: Environment, home: string, fileExists: FileExists): boolean {
  if (present(environment.AWS_BEARER_TOKEN_BEDROCK) || present(environment.AWS_PROFILE) || present(environment.AWS_WEB_IDENTITY_TOKEN_FILE)) return true;
  if (present(environment.AWS_ACCESS_KEY_ID) && present(environment.AWS_SECRET_ACCESS_KEY)) return true;
  if (present(environment.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) || present(environment.AWS_CONTAINER_CREDENTIALS_FULL_URI)) return true;
  return fileExists(environment.AWS_SHARED_CREDENTIALS_FILE ?? path.join(home, '.aws', 'credentials'));
}

/**
 * Where `gcloud auth application-default login` writes its credentials, as Google's libraries look
 * for them: under CLOUDSDK_CONFIG when set, else `%APPDATA%\gcloud` on Windows, else `~/.config/gcloud`.
 */
function gcloudAdcFile(environment: Environment, home: string): string {
  const name = 'application_default_credentials.json';
  if (present(environment.CLOUDSDK_CONFIG)) return path.join(environment.CLOUDSDK_CONFIG, name);
  if (process.platform === 'win32' && present(environment.APPDATA)) return path.join(environment.APPDATA, 'gcloud', name);
  return path.join(home, '.config', 'gcloud', name);
}

/** An Azure resource's endpoint as its SDKs take it (`https://{resource}.openai.azure.com/`), as the v1 API's root. */
function azureV1Root(endpoint: string): string {
  const root = endpoint.trim().replace(/\/+$/, '');
  if (/\/openai\/v1$/.test(root)) return root;
  if (/\/openai$/.test(root)) return `${root}/v1`;
  return `${root}/openai/v1`;
}

function bedrockStarters(environment: Environment, home: string, fileExists: FileExists, starters: CloudStarters): void {
  const region = [environment.AWS_REGION, environment.AWS_DEFAULT_REGION].find(present);
  if (region === undefined || !awsCredentialsVisible(environment, home, fileExists)) return;
  // The endpoint overrides the AWS SDKs honour: the service's own, then the one for every service,
  // unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS turns them off.
  const overrides = environment.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS?.toLowerCase() === 'true' ? [] : [environment.AWS_ENDPOINT_URL_BEDROCK_RUNTIME, environment.AWS_ENDPOINT_URL];
  const baseUrl = overrides.find(present);
  const apiKey = environment.AWS_BEARER_TOKEN_BEDROCK;
  // Keys, profiles and roles are left to the SDK's default chain, as every AWS tool finds them.
  starters.providers.bedrock = { type: 'bedrock', region, ...(baseUrl === undefined ? {} : { base_url: baseUrl }), ...(present(apiKey) ? { api_key: apiKey } : {}) };
  const route = { provider: 'bedrock', model: `${bedrockProfilePrefix(region)}.${bedrockClaude}` };
  starters.models.push({ id: 'bedrock/claude-sonnet-4-5', owned_by: 'anthropic', routes: [route] });
  starters.claudeRoutes.push(route);
}

function vertexStarters(environment: Environment, home: string, fileExists: FileExists, starters: CloudStarters): void {
  const project = [environment.GOOGLE_CLOUD_PROJECT, environment.ANTHROPIC_VERTEX_PROJECT_ID].find(present);
  if (project === undefined) return;
  const keyFile = environment.GOOGLE_APPLICATION_CREDENTIALS;
  // A key file named by GOOGLE_APPLICATION_CREDENTIALS is read by the gateway itself, so a service
  // account's grant goes to the token endpoint the file names; gcloud's file is left to ADC.
  if (!present(keyFile) && !fileExists(gcloudAdcFile(environment, home))) return;
  const location = [environment.GOOGLE_CLOUD_LOCATION, environment.CLOUD_ML_REGION].find(present) ?? 'global';
  // Google's Gen AI SDKs take GOOGLE_VERTEX_BASE_URL; Anthropic's Vertex SDK and Claude Code take ANTHROPIC_VERTEX_BASE_URL.
  const baseUrl = [environment.GOOGLE_VERTEX_BASE_URL, environment.ANTHROPIC_VERTEX_BASE_URL].find(present);
  starters.providers.vertex = {
    type: 'vertex',
    project,
    location,
    ...(present(keyFile) ? { credentials_file: keyFile } : {}),
    ...(baseUrl === undefined ? {} : { base_url: baseUrl }),
  };
  const gemini = { provider: 'vertex', model: vertexGemini };
  const claude = { provider: 'vertex', model: vertexClaude };
  starters.models.push({ id: 'vertex/gemini-2.5-flash', owned_by: 'google', routes: [gemini] });
  starters.models.push({ id: 'vertex/claude-sonnet-4-5', owned_by: 'anthropic', routes: [claude] });
  starters.geminiRoutes.push(gemini);
  starters.claudeRoutes.push(claude);
}

function azureStarters(environment: Environment, starters: CloudStarters): void {
  const endpoint = environment.AZURE_OPENAI_ENDPOINT;
  if (!present(endpoint)) return;
  const apiKey = environment.AZURE_OPENAI_API_KEY;
  // Without a key, Microsoft Entra ID (DefaultAzureCredential) authorizes the calls.
  starters.providers.azure = { type: 'azure', base_url: azureV1Root(endpoint), ...(present(apiKey) ? { api_key: apiKey } : {}) };
  const deployment = present(environment.AZURE_OPENAI_DEPLOYMENT) ? environment.AZURE_OPENAI_DEPLOYMENT : defaultAzureDeployment;
  starters.models.push({ id: `azure/${deployment}`, owned_by: 'azure', routes: [{ provider: 'azure', model: deployment }] });
}

/** The Bedrock, Vertex AI and Azure OpenAI providers and starter models the environment makes usable. */
export function cloudStarters(environment: Environment, fileExists: FileExists = existsSync): CloudStarters {
  const home = [environment.HOME, environment.USERPROFILE].find(present) ?? homedir();
  const starters: CloudStarters = { providers: {}, models: [], claudeRoutes: [], geminiRoutes: [] };
  bedrockStarters(environment, home, fileExists, starters);
  vertexStarters(environment, home, fileExists, starters);
  azureStarters(environment, starters);
  return starters;
}
