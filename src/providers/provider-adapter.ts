import type { GatewayError } from '../errors/gateway-error.js';
import type { FormatName } from '../ir/format-name.js';
import type { VideoInputMap } from './video-input-map.js';
import type {
  ImageGenerationRequest,
  ImageGenerationResult,
  ImageStreamEvent,
  IrRequest,
  IrResponse,
  IrStreamEvent,
  SubmittedImageJob,
  SubmittedVideoJob,
  UpstreamImageJobState,
  UpstreamVideoState,
  VideoGenerationRequest,
} from '../ir/index.js';

export type ProviderKind = 'openai' | 'openai-compatible' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex' | 'azure' | 'bfl' | 'runway' | 'fal' | 'replicate' | 'minimax';

/** AWS Bedrock Runtime: the region, and a credential when the default chain is not used. */
export interface BedrockSettings {
  readonly region: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
}

/** Google Vertex AI: where the models run, and a service account key when ADC is not used. */
export interface VertexSettings {
  readonly project: string;
  readonly location: string;
  readonly credentialsFile?: string;
  /** A fixed bearer token in place of Google credentials: the built-in simulator's, which issues none. */
  readonly accessToken?: string;
}

/** Azure OpenAI: the classic path shape needs an API version; the v1 API has none. */
export interface AzureSettings {
  readonly apiVersion?: string;
}

/** One upstream a route points at: which provider, where, with which credential and model. */
export interface UpstreamTarget {
  /** The operator's name for the provider in the config. */
  readonly providerName: string;
  readonly kind: ProviderKind;
  /** API root as the vendor's SDK takes it, normalised without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** The upstream's own model id. */
  readonly model: string;
  /** Extra headers the operator configured for this provider. */
  readonly headers?: Readonly<Record<string, string>>;
  /** An OpenAI-compatible server that also serves the Responses API, so Responses clients pass through. */
  readonly servesResponses?: boolean;
  /**
   * The route's `input` map: the upstream's request fields, each a template filled from the public
   * request (`providers/video-input-map.ts`), for the kinds whose models all take different fields.
   */
  readonly input?: VideoInputMap;
  /** Settings of the cloud kinds, present only on targets of that kind. */
  readonly bedrock?: BedrockSettings;
  readonly vertex?: VertexSettings;
  readonly azure?: AzureSettings;
}

/** A finished upstream call, as an authorization step sees it: exactly what will be sent. */
export interface CallToAuthorize {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer | undefined;
}

/** Headers an authorization step adds to (or replaces in) the call's headers. */
export type AuthorizationHeaders = Readonly<Record<string, string>>;

/** One event of an upstream stream: its name (if any) and its data text. */
export interface UpstreamStreamEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** Cuts an upstream's stream bytes into events, handed to its `onEvent` synchronously, in order. */
export interface UpstreamEventReader {
  push(chunk: Uint8Array): void;
  /** The bytes ended: a last event still held is handed over. */
  flush(): void;
}

/** Makes a reader for one stream; the default (no factory) is the SSE reader. */
export type UpstreamEventReaderFactory = (onEvent: (event: UpstreamStreamEvent) => void) => UpstreamEventReader;

/** Client headers a provider may forward (Anthropic `anthropic-beta`, `anthropic-version`). */
export type ForwardedHeaders = Readonly<Record<string, string>>;

export interface UpstreamHttpRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An upstream call whose body may be bytes (a multipart form with images in it). */
export interface UpstreamMediaRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

/** Turns one upstream SSE stream into canonical events; holds its state in the closure. */
export interface StreamDecoder {
  /** One SSE event: its `event:` name (if any) and `data:` text. */
  push(eventName: string | undefined, data: string): IrStreamEvent[];
  /**
   * The upstream closed the stream. Closes every block still open and, when the stream ended
   * before its terminal event, ends with an `error` event.
   */
  end(): IrStreamEvent[];
}

/**
 * How upstreams of one kind are addressed: the API root as the vendor's own SDK takes it. The
 * catalog resolves every route's base URL through this, so no other code knows a vendor's URL.
 */
export interface ApiRoot {
  /** The vendor's public API root; absent for kinds that exist only where an operator runs them. */
  readonly defaultBaseUrl?: string;
  /** For vendors whose root depends on where the models run (Bedrock's region, Vertex's location): the root there. */
  defaultBaseUrlAt?(location: string): string;
  /** Appended to a bare origin (the built-in simulator) to reach this kind's API root. */
  readonly pathOnOrigin: string;
  /** A configured root as the SDK takes it: trailing slashes and a redundant version segment dropped. */
  normalise(configured: string): string;
  /** Hosted vendors refuse calls without a credential; self-hosted servers usually take them. */
  readonly credentialRequired: boolean;
}

/** Generating text: translated calls through the IR, and passthrough for the formats spoken natively. */
export interface TextGeneration {
  /** Client formats this upstream speaks natively, so such clients are passed through. */
  readonly nativeFormats: readonly FormatName[];
  buildRequest(request: IrRequest, target: UpstreamTarget, forwarded: ForwardedHeaders): UpstreamHttpRequest;
  decodeResponse(body: unknown, request: IrRequest): IrResponse;
  createStreamDecoder(request: IrRequest): StreamDecoder;
  /** Passthrough: the URL for a client format's call; `stream` for upstreams that stream at another URL. */
  passthroughUrl(format: FormatName, target: UpstreamTarget, stream: boolean): string;
  /**
   * Passthrough: the body an upstream of the same format wants when it differs slightly (no
   * `model` or `stream` members, a platform version member), from the prepared body text and the
   * client's parsed body. Absent: the prepared body goes on unchanged.
   */
  passthroughBody?(format: FormatName, prepared: string, parsed: Readonly<Record<string, unknown>>, target: UpstreamTarget, forwarded: ForwardedHeaders): string;
  /** How this upstream's stream bytes become events, when they are not SSE (AWS event stream). */
  readonly createEventReader?: UpstreamEventReaderFactory;
}

/** Counting a request's input tokens upstream, exactly, without generating. */
export interface TokenCounting {
  /** The client format whose count request the upstream takes as it is (model renamed). */
  readonly nativeFormat: FormatName;
  countUrl(target: UpstreamTarget): string;
  /**
   * The count request's body when the upstream wants another shape than the client's: Bedrock's
   * CountTokens wraps the InvokeModel body (with the client's betas), Claude on Vertex adds its
   * platform version member. Given the client's body with the model renamed; absent: that body
   * goes on as it is.
   */
  countBody?(prepared: string, target: UpstreamTarget, forwarded: ForwardedHeaders): string;
  /** The count in the upstream's answer; undefined when the answer holds none. */
  readInputTokens(body: unknown): number | undefined;
}

/** Turns one upstream SSE stream of images into neutral events; holds its state in the closure. */
export interface ImageStreamDecoder {
  push(eventName: string | undefined, data: string): ImageStreamEvent[];
  /** The upstream closed the stream; ends with an `error` event when no image was completed. */
  end(): ImageStreamEvent[];
}

/**
 * Generating and editing images. The answer is read whole: upstreams send images as base64 in
 * one JSON body (a stream of partial images is a separate, optional path).
 */
export interface ImageGeneration {
  /**
   * Whether this upstream edits images (`/images/edits` or its equivalent) — with the models
   * that do: the model record says which.
   */
  readonly edits: boolean;
  /**
   * The upstream call. With `partialImages` above 0 and a stream decoder present, the call asks
   * for an SSE stream, to be read with `createStreamDecoder`.
   */
  buildRequest(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamMediaRequest;
  decodeResponse(body: unknown, request: ImageGenerationRequest): ImageGenerationResult;
  /** Present where the upstream streams partial images (the gpt-image family). */
  createStreamDecoder?(request: ImageGenerationRequest): ImageStreamDecoder;
}

/**
 * Images made as upstream jobs (media vendors: BFL, fal, Replicate): submitted, polled while the
 * client waits, and fetched from the URLs the finished job names. The gateway makes the calls and
 * fetches the images (without the provider's credential: result URLs are signed); the adapter only
 * builds the calls and reads their answers.
 */
export interface ImageJobs {
  /** `one`: a job makes one image, so `n` images are `n` jobs; `all`: one job makes the `n` asked. */
  readonly imagesPerJob: 'one' | 'all';
  buildSubmit(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamCall;
  decodeSubmit(body: unknown, target: UpstreamTarget): SubmittedImageJob;
  buildPoll(job: SubmittedImageJob, target: UpstreamTarget): UpstreamCall;
  /** The job's state; a failed or refused job throws the client's GatewayError (a refusal as a content-policy 400). */
  decodePoll(body: unknown, job: SubmittedImageJob): UpstreamImageJobState;
  /** Present where the upstream can stop a job the client no longer waits for. */
  buildCancel?(job: SubmittedImageJob, target: UpstreamTarget): UpstreamCall;
}

/** The images capability of an upstream that answers with jobs rather than with the images. */
export interface ImageJobGeneration {
  readonly edits: boolean;
  readonly jobs: ImageJobs;
}

/** Either form of the images capability: answered whole (or streamed), or made as jobs. */
export type ImageCapability = ImageGeneration | ImageJobGeneration;

/** One upstream HTTP call of any method, for the job-shaped APIs (videos) that need more than POST. */
export interface UpstreamCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/**
 * Running video jobs upstream: submit, poll until done, and say where the content is. The gateway
 * keeps the job and makes the calls; the adapter only builds them and reads their answers.
 */
export interface VideoGeneration {
  buildSubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall;
  decodeSubmit(body: unknown, target: UpstreamTarget): SubmittedVideoJob;
  buildPoll(upstreamJobId: string, target: UpstreamTarget): UpstreamCall;
  /**
   * The job's state in a poll's answer. `headers` carry any poll-after hint (`retry-after`). A
   * finished job whose output was withheld (a safety filter) is `failed` with the reason.
   */
  decodePoll(body: unknown, headers: Readonly<Record<string, string>>, target: UpstreamTarget): UpstreamVideoState;
  /** Present where the upstream can stop a job before it finishes. */
  buildCancel?(upstreamJobId: string, target: UpstreamTarget): UpstreamCall;
  /** Present where the upstream remixes a finished video; its answer is read with `decodeSubmit`. */
  buildRemix?(upstreamJobId: string, prompt: string, target: UpstreamTarget): UpstreamCall;
  /**
   * Content links are fetched with the provider's headers and authorization only on the provider's
   * own API origin (its configured root, or the vendor's public one): a link on any other host (a
   * vendor's CDN, signed storage) gets nothing of the provider's, even when the upstream named it. Present where the upstream's
   * content lives on another host that wants the same credential (Vertex's Cloud Storage reads
   * take the OAuth2 token): whether this content URL is one.
   */
  credentialedContentHost?(url: URL, target: UpstreamTarget): boolean;
  /**
   * Present where a finished job's outcome is a call of its own (fal's `response_url`, MiniMax's
   * file retrieval): `decodePoll` answers `finished`, then the worker makes this call. Its answer —
   * an error status included, since that is how such an upstream tells a failed job — is the job's
   * state; a 5xx or 429 is retried at the next poll instead.
   */
  readonly result?: VideoResultCall;
  /**
   * What of the variants its model sells this route cannot ask its upstream for, as the route
   * configures it (a model the kind knows by id, the route's `input` map): each problem names the
   * route's field to change. Asked of every video route when the config is loaded, so a model never
   * sells what a route would send as something else. Absent: anything the record sells can be asked.
   */
  checkRoute?(target: UpstreamTarget, variants: readonly VideoVariantShape[]): readonly RouteProblem[];
  /** A model this kind knows by its upstream id (its variants and list prices), in the config's own shape. */
  knownModel?(upstreamModel: string): KnownVideoModel | undefined;
  /** Whether routes of this kind take an `input` map (others refuse one at start). */
  readonly takesInputMap?: boolean;
}

/** The call that reads a finished job's outcome, and how its answer (of any status) is read. */
export interface VideoResultCall {
  /** The call about `resultId`: the finished state's `resultId`, else the job's upstream id. */
  build(resultId: string, target: UpstreamTarget): UpstreamCall;
  decode(status: number, body: unknown, target: UpstreamTarget): Exclude<UpstreamVideoState, { status: 'finished' }>;
}

/** One variant a model record sells, as a route check sees it. */
export interface VideoVariantShape {
  readonly mode: 'text-to-video' | 'image-to-video';
  readonly resolution: string;
  readonly aspectRatio: string;
  readonly size: string;
  readonly seconds: readonly number[];
}

/** Why a route cannot serve what its model sells: the route's field to change (`input`, `input.duration`, `model`) and what is wrong. */
export interface RouteProblem {
  readonly field: string;
  readonly message: string;
}

/** A video model an upstream kind knows by id, in the shape of a config entry's `video` and price. */
export interface KnownVideoModel {
  readonly ownedBy: string;
  /** The date its list prices were read. */
  readonly effectiveFrom: string;
  readonly remix: boolean;
  readonly variants: readonly {
    readonly mode: 'text-to-video' | 'image-to-video';
    readonly resolution: string;
    readonly aspect_ratio: string;
    readonly size?: string;
    readonly seconds: number[];
    readonly usd_per_second?: string;
  }[];
}

/**
 * An egress adapter: one upstream API kind. Pure translation; the HTTP call is made elsewhere.
 * What an upstream can do is a set of optional capabilities; an endpoint asks for the one it
 * serves and never looks at the kind.
 */
export interface ProviderAdapter {
  readonly kind: ProviderKind;
  readonly apiRoot: ApiRoot;
  /** Auth and required headers for the upstream (credential included). */
  upstreamHeaders(target: UpstreamTarget, forwarded: ForwardedHeaders): Record<string, string>;
  /**
   * Authorization computed from the final call (a bearer token fetched and cached, a signature over
   * method, URL, headers and body), for every call of every capability. Returns a promise only
   * when it must wait (a token being fetched), so a cached credential costs no extra turn.
   */
  authorize?(call: CallToAuthorize, target: UpstreamTarget): AuthorizationHeaders | Promise<AuthorizationHeaders>;
  /** Maps an upstream error response to a GatewayError (status class kept, no credentials or URLs). */
  decodeError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError;
  /**
   * The upstream refused the credential a call to `target` bore (401): what `authorize` holds for
   * that target's credential (a cached token) is dropped, so the next attempt fetches another.
   * Only that credential's: the upstream says which call it refused, not which other tokens are bad.
   */
  forgetAuthorization?(target: UpstreamTarget): void;
  readonly text?: TextGeneration;
  readonly tokenCounting?: TokenCounting;
  readonly images?: ImageCapability;
  readonly videos?: VideoGeneration;
}

/** An adapter known to generate text: what each text upstream's folder exports. */
export type TextProviderAdapter = ProviderAdapter & { readonly text: TextGeneration };
