import type { Messages } from '@lingui/core';

/** The catalogues of one language (one per feature) as one; keys are unique across features (a test checks). */
export function mergeCatalogues(modules: Record<string, unknown>): Messages {
  return Object.assign({}, ...Object.values(modules)) as Messages;
}
