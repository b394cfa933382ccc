import type { GatewayError } from '../errors/gateway-error.js';
import type { FormatName } from '../ir/format-name.js';
import type {
  ImageGenerationRequest,
  ImageGenerationResult,
  ImageStreamEvent,
  IrRequest,
  IrResponse,
  IrStreamEvent,
  SubmittedVideoJob,
  UpstreamVideoState,
  VideoGenerationRequest,
} from '../ir/index.js';

export type ProviderKind = 'openai' | 'openai-compatible' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex' | 'azure' | 'minimax';

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
  /** Settings of the cloud kinds, present only on targets of that kind. */
  readonly bedrock?: BedrockSettings;
  readonly vertex?: VertexSettings;
  readonly azure?: AzureSettings;
}

/** A finished upstream call, as an authorization step sees it: exactly what will be sent. */
export interface CallToAuthorize {
  readonly method: 'GET' | 'POST' | 'DELETE';
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

/** One upstream HTTP call of any method, for the job-shaped APIs (videos) that need more than POST. */
export interface UpstreamCall {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** A video variant as an upstream is asked whether it can make it: its shape and lengths. */
export interface VideoVariantShape {
  readonly mode: 'text-to-video' | 'image-to-video';
  /** `768p`, as the model record writes it. */
  readonly resolution: string;
  readonly aspectRatio: string;
  readonly seconds: readonly number[];
}

/**
 * Running video jobs upstream: submit, poll until done, and say where the content is. The gateway
 * keeps the job and makes the calls; the adapter only builds them and reads their answers.
 * Content URLs are fetched with `upstreamHeaders`, so the provider's key never leaves the gateway.
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
  /**
   * Present where a poll's answer names the output by an id that one more call turns into a link
   * (MiniMax's query answers a file id, its file retrieval the download URL): given a poll's
   * answer, the call to make next, or undefined when the answer tells the state alone. The
   * follow-up's answer is then what `decodePoll` reads.
   */
  buildPollFollowUp?(pollAnswer: unknown, target: UpstreamTarget): UpstreamCall | undefined;
  /**
   * Present where the upstream makes only some shapes and lengths of a model: why it cannot make
   * this variant of `upstreamModel` (undefined when it can). Every route's variants are checked at
   * start, so a config selling what the route cannot make is refused there, not per job.
   */
  refuseVariant?(variant: VideoVariantShape, upstreamModel: string): string | undefined;
  /**
   * Present where content links need other headers than the provider's own: MiniMax's are signed
   * storage links, which need none, and must not be handed its key. Absent: the provider's
   * `upstreamHeaders`, credential included, go to the link's origin.
   */
  contentHeaders?(target: UpstreamTarget): Record<string, string>;
  /** Present where the upstream can stop a job before it finishes. */
  buildCancel?(upstreamJobId: string, target: UpstreamTarget): UpstreamCall;
  /** Present where the upstream remixes a finished video; its answer is read with `decodeSubmit`. */
  buildRemix?(upstreamJobId: string, prompt: string, target: UpstreamTarget): UpstreamCall;
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
  readonly text?: TextGeneration;
  readonly tokenCounting?: TokenCounting;
  readonly images?: ImageGeneration;
  readonly videos?: VideoGeneration;
}

/** An adapter known to generate text: what each text upstream's folder exports. */
export type TextProviderAdapter = ProviderAdapter & { readonly text: TextGeneration };
