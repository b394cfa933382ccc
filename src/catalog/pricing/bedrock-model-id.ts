/**
 * The prefixes of Bedrock's cross-region inference profiles: a geography (`us.`, `eu.`, `apac.`,
 * …) or `global.`, before the model's own `vendor.model` id. The prefix is followed by a vendor
 * and a dot, so an id whose vendor happens to be spelled like one is not cut.
 */
const crossRegionPrefix = /^(us|us-gov|eu|apac|au|ca|jp|global)\.(?=[a-z0-9-]+\.)/i;

/** A foundation model's or a system inference profile's ARN ends in the id it stands for. */
const modelArn = /^arn:aws[a-z-]*:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile)\/(.+)$/i;

/** A Bedrock model id as a route names it, read for pricing. */
export interface BedrockModelId {
  /** The model or inference profile id (an ARN's last part). */
  readonly id: string;
  /** The cross-region profile's prefix without its dot (`us`, `global`), when the id has one. */
  readonly crossRegionPrefix?: string;
  /** The id of the model called in one region: the id without its cross-region prefix. */
  readonly inRegionId: string;
}

/**
 * Reads a Bedrock model id: an ARN of a foundation model or a system inference profile gives its
 * id; an application inference profile's or a provisioned model's ARN names no model, so it is
 * kept whole (and found in no price list).
 */
export function parseBedrockModelId(modelId: string): BedrockModelId {
  const trimmed = modelId.trim();
  const id = modelArn.exec(trimmed)?.[1] ?? trimmed;
  const prefix = crossRegionPrefix.exec(id)?.[1];
  if (prefix === undefined) return { id, inRegionId: id };
  return { id, crossRegionPrefix: prefix.toLowerCase(), inRegionId: id.slice(prefix.length + 1) };
}
