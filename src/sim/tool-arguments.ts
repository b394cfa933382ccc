import { asArray, asRecord, asString } from '../json/json-value.js';

/**
 * Builds plausible arguments from a tool's JSON schema: strings "sim", numbers 1, booleans true,
 * and `echo sim-tool-ran` for a `command`/`cmd` property so coding agents run something harmless.
 * Only required properties are filled when the schema lists them, because optional flags such as
 * `run_in_background: true` would change what an agent does.
 */
export function argumentsFromSchema(schema: unknown): Record<string, unknown> {
  const value = valueFromSchema(schema, undefined, 0);
  return asRecord(value) ?? {};
}

const maxDepth = 6;
const harmlessCommand = 'echo sim-tool-ran';

function valueFromSchema(schema: unknown, propertyName: string | undefined, depth: number): unknown {
  const record = asRecord(schema);
  if (record === undefined || depth > maxDepth) return propertyName === undefined ? {} : 'sim';
  if ('const' in record) return record.const;
  const choices = asArray(record.enum);
  if (choices.length > 0) return choices[0];
  const alternative = asArray(record.anyOf)[0] ?? asArray(record.oneOf)[0];
  if (alternative !== undefined && record.type === undefined) {
    return valueFromSchema(alternative, propertyName, depth + 1);
  }
  const isCommand = propertyName === 'command' || propertyName === 'cmd';
  switch (schemaType(record)) {
    case 'object':
      return objectFromSchema(record, depth);
    case 'array':
      if (isCommand) return harmlessCommand.split(' ');
      return [valueFromSchema(record.items, 'item', depth + 1)];
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return isCommand ? harmlessCommand : 'sim';
  }
}

function schemaType(record: Record<string, unknown>): string | undefined {
  const declared = record.type;
  if (typeof declared === 'string') return declared.toLowerCase();
  // A nullable type such as ["string", "null"]: the non-null member says what to build.
  const members = asArray(declared).map(asString).filter((member) => member !== undefined);
  const chosen = members.find((member) => member !== 'null') ?? members[0];
  if (chosen !== undefined) return chosen.toLowerCase();
  return asRecord(record.properties) === undefined ? undefined : 'object';
}

function objectFromSchema(record: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = asRecord(record.properties) ?? {};
  const required = Array.isArray(record.required)
    ? record.required.map(asString).filter((name) => name !== undefined)
    : Object.keys(properties);
  const result: Record<string, unknown> = {};
  for (const name of required) {
    result[name] = valueFromSchema(properties[name], name, depth + 1);
  }
  return result;
}

/**
 * Splits a JSON argument string into at least three fragments (leading empty fragments pad very
 * short strings), so clients must concatenate deltas the way real streams require.
 */
export function fragmentArguments(json: string): string[] {
  const characters = Array.from(json);
  const size = Math.max(1, Math.min(8, Math.floor(characters.length / 3)));
  const fragments: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    fragments.push(characters.slice(start, start + size).join(''));
  }
  while (fragments.length < 3) fragments.unshift('');
  return fragments;
}
