/** One tier rule for every ranking (the index may rank symbols in the engine by the same rule). */
export { tierOf } from '@gitdex/terms';

/**
 * Deterministic ranking of matching files: the quality of the best matching line (whole
 * word and exact case), then the project's own files before vendored/generated copies,
 * then whether a line defines the match (function x, class X, def x, const x =, type X,
 * func X…), then source before tests, then fewer folders, shorter paths, and names.
 */

export interface RankKey {
  /** 0..2: whole word, exact case, of the best line. */
  quality: number;
  definition: boolean;
  /** 0 source, 1 test, 2 vendored or generated. */
  tier: number;
  depth: number;
  length: number;
  repository: string;
  path: string;
}

const WORD = /[\p{L}\p{N}_$]/u;

export function isWholeWord(line: string, start: number, end: number): boolean {
  if (end <= start) return false;
  const before = start > 0 ? line[start - 1] : undefined;
  const after = end < line.length ? line[end] : undefined;
  return !(before !== undefined && WORD.test(before)) && !(after !== undefined && WORD.test(after));
}

/**
 * Keywords that start a definition in common languages, then the defined name (group 1).
 * A fixed pattern of ours (no nested quantifiers over overlapping input), run on one line.
 */
const DEFINITION =
  /^\s*(?:(?:export|default|public|private|protected|internal|static|abstract|final|async|pub(?:\([a-z]+\))?|unsafe|override|declare|readonly|inline|extern|open|sealed|data)\s+)*(?:function\*?|class|interface|type|enum|const|let|var|def|func|fn|struct|trait|impl|module|namespace|object|record|val|typedef|macro|sub|union)\s+(?:\([^)]{0,200}\)\s*)?\*?([\p{L}_$][\p{L}\p{N}_$]*)/u;
/** Assignments that define: `x = function`, `x: function`, `NAME = ...` at the start of a line. */
const ASSIGNMENT = /^\s*(?:(?:module\.)?exports\.|this\.|self\.)?([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:=(?!=)|:\s*(?:function|\())/u;

/** Whether the line defines something and the match lies on the defined name. */
export function isDefinition(line: string, start: number, end: number): boolean {
  const text = line.length > 2000 ? line.slice(0, 2000) : line;
  for (const pattern of [DEFINITION, ASSIGNMENT]) {
    const m = pattern.exec(text);
    if (!m || m[1] === undefined) continue;
    const nameEnd = m[0].length;
    const nameStart = nameEnd - m[1].length;
    if (start < nameEnd && end > nameStart) return true;
  }
  return false;
}

export function compareRank(a: RankKey, b: RankKey): number {
  return (
    b.quality - a.quality ||
    // Vendored and generated copies come after every file of the project's own.
    Number(a.tier === 2) - Number(b.tier === 2) ||
    Number(b.definition) - Number(a.definition) ||
    a.tier - b.tier ||
    a.depth - b.depth ||
    a.length - b.length ||
    (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : 0) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}
