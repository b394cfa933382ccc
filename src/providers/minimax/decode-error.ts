import { GatewayError, upstreamStatusError } from '../../errors/gateway-error.js';
import { asNumber, asString, isRecord, parseJson } from '../../json/json-value.js';

/** MiniMax's verdict on a call, in every answer: `status_code` 0 is success. */
export interface BaseResponse {
  readonly statusCode: number;
  readonly statusMessage: string;
}

/** The `base_resp` of an answer, when it has one. */
export function readBaseResponse(body: unknown): BaseResponse | undefined {
  if (!isRecord(body) || !isRecord(body.base_resp)) return undefined;
  const statusCode = asNumber(body.base_resp.status_code);
  if (statusCode === undefined) return undefined;
  return { statusCode, statusMessage: asString(body.base_resp.status_msg) ?? '' };
}

/** MiniMax's codes for a refused input or a withheld output (its moderation), which no retry changes. */
export const sensitiveInputCode = 1026;
export const sensitiveOutputCode = 1027;

/**
 * MiniMax answers most failures with HTTP 200 and a non-zero `base_resp.status_code`
 * (https://platform.minimax.io/docs/api-reference/errorcode): each is given the HTTP status it
 * would have had, so fallback, retries and the client's error follow the usual rules. The
 * operator's account (its key, its balance) is the gateway's affair, not the client's: those are
 * 502s another route may serve, with MiniMax's words kept for the operator to read.
 */
export function miniMaxBusinessError(base: BaseResponse): GatewayError {
  const said = base.statusMessage === '' ? '' : `: ${base.statusMessage}`;
  const upstreamType = `minimax_${base.statusCode}`;
  switch (base.statusCode) {
    case 1002:
      return upstreamStatusError(429, `MiniMax rate-limited the call (1002${said}).`, { upstreamType });
    case 1001:
      return upstreamStatusError(504, `MiniMax timed out (1001${said}).`, { upstreamType });
    case 1004:
      return upstreamStatusError(401, `MiniMax refused the provider's API key (1004${said}).`, { upstreamType });
    case 1008:
      return new GatewayError('upstream_error', `MiniMax refused the job: the provider's MiniMax account has insufficient balance (1008${said}).`, { status: 502, upstreamType });
    case sensitiveInputCode:
      return upstreamStatusError(400, `MiniMax refused the input as sensitive content (1026${said}).`, { upstreamType });
    case sensitiveOutputCode:
      return upstreamStatusError(400, `MiniMax withheld the output as sensitive content (1027${said}).`, { upstreamType });
    case 2013:
      return upstreamStatusError(400, `MiniMax refused the parameters (2013${said}).`, { upstreamType });
    default:
      return upstreamStatusError(500, `MiniMax failed the call (${base.statusCode}${said}).`, { upstreamType });
  }
}

/**
 * An answer MiniMax sent with an error status: its `base_resp` when it has one (read as at HTTP
 * 200), else the status alone.
 */
export function decodeMiniMaxError(status: number, bodyText: string): GatewayError {
  const base = readBaseResponse(parseJson(bodyText));
  if (base !== undefined && base.statusCode !== 0) return withStatusKept(miniMaxBusinessError(base), status);
  return upstreamStatusError(status, `MiniMax upstream returned HTTP ${status}.`);
}

/** The business code decides the kind of failure; the HTTP status it came with is kept for the logs. */
function withStatusKept(error: GatewayError, status: number): GatewayError {
  return new GatewayError(error.code, error.message, {
    status: error.status,
    upstreamStatus: status,
    ...(error.upstreamType === undefined ? {} : { upstreamType: error.upstreamType }),
  });
}

/** The answer, if MiniMax said it succeeded; its business error otherwise. */
export function assertMiniMaxSuccess(body: unknown): void {
  const base = readBaseResponse(body);
  if (base !== undefined && base.statusCode !== 0) throw miniMaxBusinessError(base);
}
