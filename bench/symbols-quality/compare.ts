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

export interface FindFigures {
  /** ctags definitions asked for by name. */
  asked: number;
  /** ...whose definition is among the first 5 answers. */
  top5: number;
  /** ctags definitions whose name ctags defines once in the set, and how many of them came first. */
  unique: number;
  uniqueFirst: number;
}

export const last = (qualified: string) => qualified.split(/::|\.|\\/).pop() ?? qualified;

/** ctags scopes that are types: a definition inside one is asked for as `Type.name`. */
const TYPE_SCOPES = new Set(['class', 'struct', 'interface', 'enum', 'trait', 'implementation', 'union', 'record', 'module']);
export const typeScope = (t: CtagsTag) => (t.scope && t.scopeKind && TYPE_SCOPES.has(t.scopeKind) ? last(t.scope) : null);

/**
 * A stand-in for find_symbol over one set, for the integrator to replace with the real tool. The
 * query is what an agent would ask: `Type.name` when ctags's scope is a type, else the name.
 * Answers: the set's definitions of that name (and, for `Container.name`, whose innermost
 * container is that), ranked outer before nested, then fewer folders, then path. A ctags
 * definition counts when a same-path answer holds its line among the first 5.
 */
export function findByName(tags: readonly CtagsTag[], outlines: ReadonlyMap<string, readonly SymbolDefinition[]>): FindFigures {
  const byName = new Map<string, Array<{ path: string; d: SymbolDefinition }>>();
  for (const [path, outline] of outlines)
    for (const d of outline) {
      const key = d.name.replace(/\s+/g, '');
      byName.set(key, [...(byName.get(key) ?? []), { path, d }]);
    }
  const depth = (p: string) => p.split('/').length;
  for (const answers of byName.values())
    answers.sort((a, b) => Number(a.d.container !== null) - Number(b.d.container !== null) || depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.d.line - b.d.line));
  const query = (t: CtagsTag) => `${typeScope(t) ?? ''}.${t.name}`;
  const ctagsCount = new Map<string, number>();
  for (const t of tags) ctagsCount.set(query(t), (ctagsCount.get(query(t)) ?? 0) + 1);
  const figures: FindFigures = { asked: 0, top5: 0, unique: 0, uniqueFirst: 0 };
  for (const t of tags) {
    const scope = typeScope(t);
    const answers = (byName.get(t.name.replace(/\s+/g, '')) ?? []).filter((a) => scope === null || (a.d.container !== null && last(a.d.container) === scope));
    const hit = (a: { path: string; d: SymbolDefinition }) => a.path === t.path && a.d.line <= t.line && t.line <= a.d.endLine;
    figures.asked++;
    if (answers.slice(0, 5).some(hit)) figures.top5++;
    if (ctagsCount.get(query(t)) === 1) {
      figures.unique++;
      if (answers[0] && hit(answers[0])) figures.uniqueFirst++;
    }
  }
  return figures;
}
