import type { SymbolDefinition } from '@gitdex/contracts';
import { COMPARED_KINDS, type CtagsTag } from './ctags';

export interface Comparison {
  /** ctags's compared definitions, and how many of them the outline holds. */
  ctags: number;
  found: number;
  /** Our compared definitions, and how many of them ctags also has. */
  ours: number;
  confirmed: number;
  missedByKind: Record<string, number>;
  extraByKind: Record<string, number>;
  missed: string[];
  extra: string[];
}

/** ctags writes `operator !=`, the source may say `operator!=`: names compare without spaces. */
const same = (a: string, b: string) => a === b || a.replace(/\s+/g, '') === b.replace(/\s+/g, '');

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * The issue's outline criterion: a ctags definition is held when the file's outline has a
 * definition of the same name whose line..endLine holds ctags's line. Precision the other way:
 * one of ours is confirmed when ctags has a definition of that name on a line inside its range.
 */
export function compare(tags: readonly CtagsTag[], outlines: ReadonlyMap<string, readonly SymbolDefinition[]>): Comparison {
  const result: Comparison = { ctags: 0, found: 0, ours: 0, confirmed: 0, missedByKind: {}, extraByKind: {}, missed: [], extra: [] };
  const tagsByPath = new Map<string, CtagsTag[]>();
  for (const tag of tags) tagsByPath.set(tag.path, [...(tagsByPath.get(tag.path) ?? []), tag]);
  for (const tag of tags) {
    result.ctags++;
    const outline = outlines.get(tag.path) ?? [];
    if (outline.some((d) => same(d.name, tag.name) && d.line <= tag.line && tag.line <= d.endLine)) result.found++;
    else {
      bump(result.missedByKind, tag.kind);
      result.missed.push(`${tag.path}:${tag.line} ${tag.kind} ${tag.scope ? `${tag.scope}.` : ''}${tag.name}`);
    }
  }
  for (const [path, outline] of outlines) {
    const fileTags = tagsByPath.get(path) ?? [];
    for (const d of outline) {
      if (!COMPARED_KINDS.has(d.kind)) continue;
      result.ours++;
      if (fileTags.some((t) => same(t.name, d.name) && d.line <= t.line && t.line <= d.endLine)) result.confirmed++;
      else {
        bump(result.extraByKind, d.kind);
        result.extra.push(`${path}:${d.line} ${d.kind} ${d.container ? `${d.container}.` : ''}${d.name}`);
      }
    }
  }
  return result;
}
