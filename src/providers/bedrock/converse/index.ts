export { buildConverseBody, buildConverseRequest, type ConverseTarget } from './build-request.js';
export { decodeConverseError } from './decode-error.js';
export { decodeConverseResponse } from './decode-response.js';
export { createConverseStreamDecoder } from './stream-decoder.js';
