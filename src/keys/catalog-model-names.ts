import type { ModelCatalog } from '../catalog/model-catalog.js';
import type { ModelNames } from './key-settings.js';

/** The names a catalog answers to, for scoping keys: ids, aliases and legacy aliases map to public ids. */
export function catalogModelNames(catalog: Pick<ModelCatalog, 'find' | 'models'>): ModelNames {
  return {
    publicId: (name) => catalog.find(name)?.id,
    known: catalog.models.map((model) => model.id),
  };
}
