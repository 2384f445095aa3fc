import type { BlobSymbols, SymbolDefinition, SymbolKind, SymbolOccurrence } from '@gitdex/contracts';

/**
 * Definitions for the symbol tools' latency bench, found by line patterns in JavaScript,
 * TypeScript, Java and Python. They stand in for tree-sitter extraction so the bench measures the
 * reads and the tools, not a parser: what a query costs depends on how many definitions and
 * files match a name, which these give at the corpus's real scale and name distribution. A
 * definition ends before the next one at its indentation or less; it nests under the nearest
 * open class.
 */
const PATTERNS: { languages: RegExp; re: RegExp; kind: SymbolKind; nests?: boolean }[] = [
  { languages: /^(js|mjs|cjs|ts|tsx|jsx)$/, re: /^(\s*)(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, kind: 'class', nests: true },
  { languages: /^(js|mjs|cjs|ts|tsx|jsx)$/, re: /^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/, kind: 'function' },
  { languages: /^(ts|tsx)$/, re: /^(\s*)(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/, kind: 'interface', nests: true },
  { languages: /^(ts|tsx)$/, re: /^(\s*)(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*[=<]/, kind: 'type' },
  { languages: /^(ts|tsx)$/, re: /^(\s*)(?:export\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/, kind: 'enum' },
  { languages: /^(js|mjs|cjs|ts|tsx|jsx)$/, re: /^()(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=/, kind: 'constant' },
  { languages: /^(js|mjs|cjs|ts|tsx|jsx)$/, re: /^(\s+)(?:static\s+|async\s+|get\s+|set\s+|public\s+|private\s+|protected\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/, kind: 'method' },
  { languages: /^java$/, re: /^(\s*)(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*(?:class|record)\s+([A-Za-z_$][\w$]*)/, kind: 'class', nests: true },
  { languages: /^java$/, re: /^(\s*)(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*interface\s+([A-Za-z_$][\w$]*)/, kind: 'interface', nests: true },
  { languages: /^java$/, re: /^(\s*)(?:(?:public|private|protected|static|final)\s+)*enum\s+([A-Za-z_$][\w$]*)/, kind: 'enum', nests: true },
  { languages: /^java$/, re: /^(\s+)(?:(?:public|private|protected|static|final|abstract|synchronized|native|default)\s+)+[\w<>[\],.? ]+\s+([A-Za-z_$][\w$]*)\s*\(/, kind: 'method' },
  { languages: /^py$/, re: /^(\s*)class\s+([A-Za-z_]\w*)/, kind: 'class', nests: true },
  { languages: /^py$/, re: /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)/, kind: 'function' },
];

/**
 * Statements the method pattern would read as definitions (`  if (x) {`, `  for (…) {`): a parser
 * never defines them, and as names they would be the corpus's most frequent by far.
 */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'function', 'do', 'else', 'try', 'synchronized', 'new', 'throw', 'super', 'this']);

export function standInSymbols(extension: string, language: string | null, content: string): BlobSymbols | undefined {
  const patterns = PATTERNS.filter((p) => p.languages.test(extension));
  if (patterns.length === 0) return undefined;
  const lines = content.split('\n');
  const found: { def: SymbolDefinition; indent: number; nests: boolean }[] = [];
  const occurrences: SymbolOccurrence[] = [];
  lines.forEach((text, i) => {
    if (text.length > 2_000) return;
    for (const p of patterns) {
      const m = p.re.exec(text);
      if (!m || m[2] === undefined || KEYWORDS.has(m[2])) continue;
      const indent = (m[1] ?? '').length;
      const open = [...found].reverse().find((f) => f.nests && f.indent < indent && f.def.endLine === 0);
      const kind: SymbolKind = p.kind === 'function' && open ? 'method' : p.kind;
      found.push({
        def: {
          name: m[2],
          kind,
          line: i + 1,
          endLine: 0,
          container: open ? (open.def.container ? `${open.def.container}.${open.def.name}` : open.def.name) : null,
          signature: text.trim().slice(0, 200),
        },
        indent,
        nests: p.nests ?? false,
      });
      const start = text.indexOf(m[2], indent);
      occurrences.push({ name: m[2], line: i + 1, start, end: start + m[2].length, role: 'definition' });
      // Close every open definition at this indentation or deeper.
      for (const f of found) if (f.def.endLine === 0 && f !== found[found.length - 1] && f.indent >= indent) f.def.endLine = Math.max(f.def.line, i);
      break;
    }
  });
  for (const f of found) if (f.def.endLine === 0) f.def.endLine = Math.max(f.def.line, lines.length);
  return { extractor: 1, language, status: 'parsed', definitions: found.map((f) => f.def), occurrences };
}
