/** The front matter of a published document: the fields a site shows, and where the body starts. */
export interface FrontMatter {
  title?: string;
  date?: string;
  tags?: string[];
  /** Every top-level field, as text (lists joined by ", "). */
  fields: Record<string, string>;
  /** First line of the body, 1-based, in the file's numbering. */
  bodyStartLine: number;
}

const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/, '$2');
const listOf = (value: string) =>
  value
    .trim()
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map(unquote)
    .filter(Boolean);

/**
 * Parses YAML ("---") or TOML ("+++") front matter at the top of a text, as static site
 * generators write it: top-level `key: value` (`key = value`), inline lists `[a, b]` and block
 * lists (`- a` lines). Nested structures are kept as their first line of text only. Null when
 * the text has no front matter.
 */
export function parseFrontMatter(lines: (number: number) => string, count: number): FrontMatter | null {
  if (count < 2) return null;
  const fence = lines(1).trim();
  if (fence !== '---' && fence !== '+++') return null;
  const separator = fence === '---' ? ':' : '=';
  const fields: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  let current: string | null = null;
  for (let number = 2; number <= count; number += 1) {
    const line = lines(number);
    if (line.trim() === fence) {
      const tags = lists.tags ?? (fields.tags !== undefined ? listOf(fields.tags) : undefined);
      return {
        ...(fields.title !== undefined ? { title: fields.title } : {}),
        ...(fields.date !== undefined ? { date: fields.date } : {}),
        ...(tags !== undefined ? { tags } : {}),
        fields: { ...fields, ...Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.join(', ')])) },
        bodyStartLine: Math.min(number + 1, count),
      };
    }
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && current !== null) {
      (lists[current] ??= []).push(unquote(item[1] ?? ''));
      continue;
    }
    const at = line.indexOf(separator);
    if (at > 0 && !/^\s/.test(line)) {
      current = line.slice(0, at).trim();
      const value = line.slice(at + 1).trim();
      if (value !== '') {
        fields[current] = value.startsWith('[') ? listOf(value).join(', ') : unquote(value);
        if (value.startsWith('[')) lists[current] = listOf(value);
      }
    }
  }
  return null;
}
