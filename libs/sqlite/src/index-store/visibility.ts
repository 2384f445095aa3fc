/**
 * The one rule deciding which file versions a snapshot sees: a version is visible at
 * generation @g when it was written at or before @g and not retired by then. Every read,
 * listing, count, suggestion and search statement uses these clauses and nothing else, so a
 * change of what a snapshot sees (layered refs) is made here.
 */
export const VISIBLE = `from_gen <= @g AND (retired_gen IS NULL OR retired_gen > @g)`;
export const VISIBLE_F = `f.from_gen <= @g AND (f.retired_gen IS NULL OR f.retired_gen > @g)`;
