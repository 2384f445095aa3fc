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

/**
 * How a read statement picks its rows: the snapshot's scope, and the versions visible in it.
 * PLAIN reads one ref at @g (scope @s). LAYERED reads a ref layered on another
 * (Snapshot.underlay): its own versions at @g plus the underlay's (scope @us) at @ug whose path
 * is not in @shadowed (a JSON array). Statements are prepared once for each, so a plain read
 * keeps its index plan (one scope, in path order).
 */
export interface Visibility {
  scope(alias: string): string;
  visible(alias: string): string;
}

const column = (alias: string, name: string) => (alias === '' ? name : `${alias}.${name}`);

export const PLAIN: Visibility = {
  scope: (alias) => `${column(alias, 'scope_id')} = @s`,
  visible: (alias) => visibleAt(alias, '@g'),
};

export const LAYERED: Visibility = {
  scope: (alias) => `${column(alias, 'scope_id')} IN (@s, @us)`,
  visible: (alias) =>
    `${visibleAt(alias, `(CASE ${column(alias, 'scope_id')} WHEN @s THEN @g ELSE @ug END)`)}
      AND (${column(alias, 'scope_id')} = @s OR ${column(alias, 'fid')} NOT IN (SELECT fid FROM files WHERE scope_id = @us AND path IN (SELECT value FROM json_each(@shadowed))))`,
};
