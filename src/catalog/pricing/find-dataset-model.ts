import type { MatchLogic, ModelInfo } from '@pydantic/genai-prices';

/**
 * True when a model id satisfies the dataset's match logic. Text comparisons ignore case and a
 * regex is taken as written, as the dataset's own matcher does, so a model id finds the same
 * model here as in the dataset's price calculator.
 */
export function matchesModelId(logic: MatchLogic, modelId: string): boolean {
  if ('or' in logic) return logic.or.some((alternative) => matchesModelId(alternative, modelId));
  if ('and' in logic) return logic.and.every((condition) => matchesModelId(condition, modelId));
  const id = modelId.toLowerCase();
  if ('equals' in logic) return id === logic.equals.toLowerCase();
  if ('starts_with' in logic) return id.startsWith(logic.starts_with.toLowerCase());
  if ('ends_with' in logic) return id.endsWith(logic.ends_with.toLowerCase());
  if ('contains' in logic) return id.includes(logic.contains.toLowerCase());
  return new RegExp(logic.regex).test(modelId);
}

// A compact date suffix ("-20250929"), which the dataset often lists only as "-2025-09-29".
const compactDateSuffix = /-(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=-|:|$)/g;

/**
 * The first of a provider's dataset models whose match logic accepts the id (the dataset's
 * order decides between overlapping patterns), trying the id with its date written with hyphens
 * when the id as given matches nothing.
 */
export function findDatasetModel(models: readonly ModelInfo[], modelId: string): ModelInfo | undefined {
  const id = modelId.trim().toLowerCase();
  const found = models.find((model) => matchesModelId(model.match, id));
  if (found !== undefined) return found;
  const hyphenated = id.replace(compactDateSuffix, '-$1-$2-$3');
  return hyphenated === id ? undefined : models.find((model) => matchesModelId(model.match, hyphenated));
}
