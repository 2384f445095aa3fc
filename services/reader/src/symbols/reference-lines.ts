import type { ReferenceLine, SymbolOccurrence } from '@gitdex/contracts';
import { cutText } from '../format/text';
import { lineSpans } from '../search/lines';

/** Characters of a line shown; longer lines are cut (as search_code cuts them). */
export const MAX_LINE_CHARS = 300;

/**
 * A file's occurrences of a name as lines like search_code's matches: one per line, in line
 * order, each occurrence a [start, end) range with its role. Ranges past a cut line's end are
 * dropped from the ranges shown (the line still counts).
 */
export function referenceLines(content: string, occurrences: readonly SymbolOccurrence[], keep: number): ReferenceLine[] {
  const byLine = new Map<number, SymbolOccurrence[]>();
  for (const o of occurrences) {
    const list = byLine.get(o.line);
    if (list) list.push(o);
    else byLine.set(o.line, [o]);
  }
  const numbers = [...byLine.keys()].sort((a, b) => a - b).slice(0, keep);
  const spans = lineSpans(content, new Set(numbers), numbers[numbers.length - 1] ?? 0);
  return numbers.map((line) => {
    const text = cutText(spans.get(line) ?? '', MAX_LINE_CHARS);
    const shown = (byLine.get(line) ?? []).filter((o) => o.start < text.length).sort((a, b) => a.start - b.start);
    return {
      line,
      text,
      ranges: shown.map((o) => [o.start, Math.min(o.end, text.length)] as [number, number]),
      roles: shown.map((o) => o.role),
    };
  });
}

export function distinctLines(occurrences: readonly SymbolOccurrence[]): number {
  return new Set(occurrences.map((o) => o.line)).size;
}
