/**
 * The one rule deciding which file versions a snapshot sees: a version is visible at a
 * generation when it was written at or before it and not retired by then. Every read,
 * listing, count, suggestion and search statement uses these clauses and nothing else, so a
 * change of what a snapshot sees (layered refs) is made here.
 */
export function visibleAt(alias: string, generation: string): string {
  const c = alias === '' ? '' : `${alias}.`;
  return `${c}from_gen <= ${generation} AND (${c}retired_gen IS NULL OR ${c}retired_gen > ${generation})`;
}

/** Visible at generation @g, on `files` or `file_folders` unaliased, and on `files f`. */
export const VISIBLE = visibleAt('', '@g');
export const VISIBLE_F = visibleAt('f', '@g');
