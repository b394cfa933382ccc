import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/**
 * Parses a YAML document with the `yaml` package, loaded on first use: the built-in defaults need no
 * parser, and it is some 70 modules of the start. Loaded with `require` (its Node build is CommonJS)
 * because reading the config is synchronous, at start and on a reload alike.
 */
export function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml.parse(text);
}
