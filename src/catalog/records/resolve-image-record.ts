import { ConfigError } from '../../config/load-config.js';
import type { ImageRulesConfig, LegacyAliasConfig } from '../../config/model-record-schema.js';
import { builtinLegacyImageRecords } from './builtin-legacy-image-records.js';
import type { ImageModelRecord, LegacyImageAlias } from './image-model-record.js';
import { imageRulesFromConfig } from './image-rules-from-config.js';
import { ownEntry } from './own-entry.js';
import { deriveLegacyMapping } from './legacy-mapping.js';

/**
 * An image model's rules and legacy aliases: the config over the built-in record. A legacy alias
 * named by id alone must be one the gateway knows (dall-e-3, dall-e-2); any other needs its rules.
 */
export function resolveImageRecord(
  where: string,
  builtin: ImageRulesConfig | undefined,
  configured: ImageRulesConfig | undefined,
  legacyAliases: readonly LegacyAliasConfig[],
): ImageModelRecord {
  const rules = imageRulesFromConfig(builtin, configured);
  if (rules === undefined) throw new ConfigError(`${where}.image: an image model the gateway does not know by id needs sizes or dimensions`);
  const resolvedAliases = legacyAliases.map((alias, index): LegacyImageAlias => {
    const id = typeof alias === 'string' ? alias : alias.id;
    const known = ownEntry(builtinLegacyImageRecords, id);
    const legacyRules = imageRulesFromConfig(known?.image, typeof alias === 'string' ? undefined : alias.image);
    if (legacyRules === undefined) {
      throw new ConfigError(`${where}.legacy_aliases[${index}]: "${id}" is not a legacy model the gateway knows; give its image rules (sizes or dimensions)`);
    }
    const mapping = deriveLegacyMapping(legacyRules, rules, known?.qualityMeaning ?? {}, known?.dropped ?? [], typeof alias === 'string' ? undefined : alias.mapping);
    return { id, rules: legacyRules, mapping };
  });
  return { rules, legacyAliases: resolvedAliases };
}
