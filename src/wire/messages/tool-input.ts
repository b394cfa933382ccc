import { isRecord, parseJson } from '../../json/json-value.js';

/**
 * Tool-call arguments (JSON text in the IR) as the `input` object Messages requires. Messages
 * clients read `input` as an object, so empty or invalid text (or JSON that is not an object)
 * becomes `{}` rather than failing an answer the model already gave.
 */
export function toolInputFromArguments(argumentsText: string): Readonly<Record<string, unknown>> {
  if (argumentsText.trim() === '') return {};
  const parsed = parseJson(argumentsText);
  return isRecord(parsed) ? parsed : {};
}
