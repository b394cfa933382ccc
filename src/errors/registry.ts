/**
 * Every failure the gateway can report, with its HTTP status and whether a retry on another
 * attempt or route may succeed. Formats map `code` to their own error `type` names.
 */
export const errorRegistry = {
  invalid_request: { status: 400, retryable: false },
  invalid_json: { status: 400, retryable: false },
  missing_field: { status: 400, retryable: false },
  invalid_field: { status: 400, retryable: false },
  unsupported_parameter: { status: 400, retryable: false },
  /** A field the endpoint does not know (OpenAI's Images API refuses them by this code). */
  unknown_parameter: { status: 400, retryable: false },
  /** A content kind the gateway cannot translate; a same-format upstream may still take it. */
  unsupported_content: { status: 400, retryable: false },
  authentication_required: { status: 401, retryable: false },
  invalid_api_key: { status: 401, retryable: false },
  budget_exhausted: { status: 402, retryable: false },
  /** A key with a budget asked for a model that has no price: its cost could not be kept within the budget. */
  model_unpriced: { status: 402, retryable: false },
  permission_denied: { status: 403, retryable: false },
  model_not_permitted: { status: 403, retryable: false },
  endpoint_not_permitted: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  /** Responses `previous_response_id` names nothing this key stored (OpenAI answers 400 too). */
  previous_response_not_found: { status: 400, retryable: false },
  model_not_found: { status: 404, retryable: false },
  method_not_allowed: { status: 405, retryable: false },
  conflict: { status: 409, retryable: false },
  /** A video job's content asked for while the job is still queued or rendering. */
  video_not_ready: { status: 409, retryable: false },
  /** A finished video's content after its `expires_at`. */
  video_expired: { status: 404, retryable: false },
  body_too_large: { status: 413, retryable: false },
  unsupported_media_type: { status: 415, retryable: false },
  unsupported_combination: { status: 422, retryable: false },
  rate_limited: { status: 429, retryable: false },
  /**
   * Every route's upstream already has its `max_concurrency` calls in flight. Not retried on the
   * same route (its slots free only when calls end); the next route is tried instead.
   */
  upstream_busy: { status: 429, retryable: false },
  internal_error: { status: 500, retryable: false },
  /** The upstream answered with a client error (its 4xx, mapped); retrying will not help. */
  upstream_client_error: { status: 400, retryable: false },
  upstream_rate_limited: { status: 429, retryable: true },
  upstream_error: { status: 502, retryable: true },
  upstream_unavailable: { status: 503, retryable: true },
  upstream_connect_failed: { status: 502, retryable: true },
  upstream_timeout: { status: 504, retryable: true },
  upstream_invalid_response: { status: 502, retryable: false },
  /**
   * A text answer that cannot be read at all (JSON cut short, a stream that is not SSE): a broken
   * connection or proxy more often than a wrong request, so another attempt or route may answer.
   */
  upstream_malformed_answer: { status: 502, retryable: true },
  no_route: { status: 503, retryable: false },
  /** The bucket (or other store) holding generated images and videos did not answer or refused the gateway. */
  content_store_unavailable: { status: 503, retryable: true },
  /** The database did not answer (a key lookup); no other route would help, the client may retry. */
  database_unavailable: { status: 503, retryable: false },
  /** Every route of the model is failing and skipped for a cool-down (its circuit breaker is open). */
  circuit_open: { status: 503, retryable: false },
  /** The upstream's answer grew past `routing.max_answer_bytes`. */
  upstream_answer_too_large: { status: 502, retryable: false },
  /**
   * Content a video upstream handed back that the gateway will not keep: not a video or image
   * type, larger than `videos.download_max_bytes`, or at an address inside the gateway's network.
   */
  upstream_content_refused: { status: 502, retryable: false },
  /** An `Idempotency-Key` sent again with a different request (the IETF idempotency-key draft's 422). */
  idempotency_key_reused: { status: 422, retryable: false },
  /** This instance should not be sent traffic: it is shutting down, or its database does not answer. */
  not_ready: { status: 503, retryable: true },
  /**
   * Redis, which holds the rate limits or budgets shared by every instance, does not answer and its
   * fail mode is `closed`. Another route would meet the same store, so it is no retry.
   */
  limits_unavailable: { status: 503, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof errorRegistry;
