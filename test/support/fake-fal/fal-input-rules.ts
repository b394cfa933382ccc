/**
 * The input fields the fake checks for the endpoints the tests call, with the values fal's schemas
 * accept (`@fal-ai/client` 1.10.1 `types/endpoints.d.ts`, generated from fal's OpenAPI): duration
 * is a string on fal, with an `s` on Veo 3.1. A request breaking them fails as fal's runners fail
 * one, when its result is read: a 422 with FastAPI's `detail` list.
 */
interface FieldRule {
  readonly required?: boolean;
  readonly oneOf?: readonly string[];
  readonly url?: boolean;
}

const klingText: Readonly<Record<string, FieldRule>> = {
  prompt: { required: true },
  duration: { oneOf: ['5', '10'] },
  aspect_ratio: { oneOf: ['16:9', '9:16', '1:1'] },
};
const veo: Readonly<Record<string, FieldRule>> = {
  prompt: { required: true },
  duration: { oneOf: ['4s', '6s', '8s'] },
  aspect_ratio: { oneOf: ['16:9', '9:16'] },
  resolution: { oneOf: ['720p', '1080p', '4k'] },
};

const rulesByEndpoint: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
  'fal-ai/kling-video/v2.1/master/text-to-video': klingText,
  'fal-ai/veo3.1': veo,
  'fal-ai/veo3.1/image-to-video': { ...veo, aspect_ratio: { oneOf: ['16:9', '9:16', 'auto'] }, image_url: { required: true, url: true } },
};

export interface FalValidationIssue {
  readonly loc: readonly string[];
  readonly msg: string;
  readonly type: string;
}

/** What fal would refuse in an input; empty when it is fine or the endpoint has no rules here. */
export function falInputIssues(endpointId: string, input: unknown): FalValidationIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }];
  const rules = Object.hasOwn(rulesByEndpoint, endpointId) ? rulesByEndpoint[endpointId] : { prompt: { required: true } };
  const record = input as Record<string, unknown>;
  const issues: FalValidationIssue[] = [];
  for (const [field, rule] of Object.entries(rules ?? {})) {
    const value = record[field];
    if (value === undefined) {
      if (rule.required === true) issues.push({ loc: ['body', field], msg: 'Field required', type: 'missing' });
      continue;
    }
    if (typeof value !== 'string') {
      issues.push({ loc: ['body', field], msg: 'Input should be a valid string', type: 'string_type' });
      continue;
    }
    if (rule.oneOf !== undefined && !rule.oneOf.includes(value)) {
      issues.push({ loc: ['body', field], msg: `Input should be ${rule.oneOf.map((option) => `'${option}'`).join(', ')}`, type: 'literal_error' });
    }
    if (rule.url === true && !/^(https?:\/\/|data:image\/)/.test(value)) issues.push({ loc: ['body', field], msg: 'Input should be a valid URL', type: 'url_parsing' });
  }
  return issues;
}
