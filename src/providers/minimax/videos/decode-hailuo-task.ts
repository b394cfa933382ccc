import { GatewayError } from '../../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../../ir/video-generation.js';
import { asString, isRecord } from '../../../json/json-value.js';
import { decodeMiniMaxError, miniMaxBusinessError, readBaseResponse, sensitiveInputCode, sensitiveOutputCode, type BaseResponse } from '../decode-error.js';

type Completed = Extract<UpstreamVideoState, { status: 'completed' }>;

/** A task MiniMax finished without a video: withheld by its moderation, or failed. */
function failure(base: BaseResponse | undefined): UpstreamVideoState {
  if (base?.statusCode === sensitiveInputCode || base?.statusCode === sensitiveOutputCode) {
    const which = base.statusCode === sensitiveInputCode ? 'the input' : 'the video';
    const said = base.statusMessage === '' ? '' : ` (${base.statusMessage})`;
    return { status: 'failed', error: { code: 'content_filtered', message: `MiniMax withheld ${which} as sensitive content${said}. Nothing was charged.` } };
  }
  const said = base !== undefined && base.statusCode !== 0 && base.statusMessage !== '' ? `: ${base.statusMessage}` : '.';
  return { status: 'failed', error: { code: 'upstream_failed', message: `MiniMax could not make the video${said}` } };
}

/** A file's record: the video's link (signed, for some hours), where it is kept. */
function decodeFile(file: Record<string, unknown>): Completed {
  const url = asString(file.download_url) ?? asString(file.backup_download_url);
  if (url === undefined || url === '') throw new GatewayError('upstream_invalid_response', 'MiniMax named the video file without a link to download it.');
  return { status: 'completed', downloads: { video: url } };
}

/**
 * A task's state from MiniMax's query (`Preparing`, `Queueing`, `Processing`, `Success`, `Fail`;
 * no progress figure). A `Success` names the video only by its file id: the job is `finished`, and
 * the file retrieval (`decodeHailuoFile`) gives its link. MiniMax answers failures with HTTP 200: a `base_resp` with a non-zero code is a withheld
 * video (1026, 1027) or a failed task, ended free, or a failed call, raised as its error so the
 * poll is retried or the job ended as for any upstream error.
 */
export function decodeHailuoTask(body: unknown): UpstreamVideoState {
  if (!isRecord(body)) throw new GatewayError('upstream_invalid_response', 'MiniMax answered with something that is not a task.');
  const base = readBaseResponse(body);
  const status = asString(body.status);
  if (status === 'Fail' || base?.statusCode === sensitiveInputCode || base?.statusCode === sensitiveOutputCode) return failure(base);
  if (base !== undefined && base.statusCode !== 0) throw miniMaxBusinessError(base);
  switch (status) {
    case 'Preparing':
    case 'Queueing':
      return { status: 'queued' };
    case 'Processing':
      return { status: 'in_progress' };
    case 'Success': {
      const fileId = finishedFileId(body);
      // A success is read through its file; one that names none has nothing to deliver.
      if (fileId === undefined) return { status: 'failed', error: { code: 'upstream_no_output', message: 'MiniMax finished the task without a video file.' } };
      return { status: 'finished', resultId: fileId };
    }
    default:
      throw new GatewayError('upstream_invalid_response', `MiniMax answered with a task status the gateway does not know (${String(status)}).`);
  }
}

/** The file a finished task made, when the query's answer names one. */
function finishedFileId(body: Record<string, unknown>): string | undefined {
  const id = body.file_id;
  // MiniMax's ids are long integers, sent as strings; a number is taken as written.
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The file retrieval's answer, read for a finished task: the video's link. An HTTP error is
 * MiniMax's error; a `base_resp` refusal (MiniMax answers those with HTTP 200) is raised as its
 * error too, so the job is polled again or ended as for any upstream error.
 */
export function decodeHailuoFile(status: number, body: unknown): Completed {
  if (status >= 400) throw decodeMiniMaxError(status, JSON.stringify(body));
  if (!isRecord(body)) throw new GatewayError('upstream_invalid_response', 'MiniMax answered the file retrieval with something that is not a file.');
  const base = readBaseResponse(body);
  if (base !== undefined && base.statusCode !== 0) throw miniMaxBusinessError(base);
  if (!isRecord(body.file)) throw new GatewayError('upstream_invalid_response', 'MiniMax answered the file retrieval without the file.');
  return decodeFile(body.file);
}
