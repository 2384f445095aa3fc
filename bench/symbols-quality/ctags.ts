import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One universal-ctags definition, as `--output-format=json --fields=+ne` prints it. */
export interface CtagsTag {
  name: string;
  language: string;
  path: string;
  line: number;
  end?: number;
  kind: string;
  scope?: string;
  scopeKind?: string;
}

/**
 * ctags kinds (long names) compared, per ctags language: functions, methods, classes, interfaces,
 * structs, enums and types, the kinds the target names. Fields, variables, constants,
 * macros, namespaces, aliases and prototypes are left out on both sides. The same long name means
 * different things across ctags's parsers ("member" is a Python method but a Go or C++ field).
 */
export const COMPARED_CTAGS_KINDS: Readonly<Record<string, ReadonlySet<string>>> = {
  Python: new Set(['class', 'function', 'member']),
  Go: new Set(['func', 'methodSpec', 'struct', 'interface', 'type', 'talias']),
  Java: new Set(['class', 'enum', 'interface', 'method', 'annotation', 'record']),
  C: new Set(['function', 'struct', 'union', 'enum', 'typedef']),
  'C++': new Set(['function', 'class', 'struct', 'union', 'enum', 'typedef']),
  'C#': new Set(['class', 'interface', 'struct', 'enum', 'method']),
  PHP: new Set(['class', 'interface', 'trait', 'function', 'enum']),
  Rust: new Set(['function', 'method', 'struct', 'enum', 'interface', 'typedef', 'union']),
  Ruby: new Set(['class', 'method', 'singletonMethod']),
  TypeScript: new Set(['function', 'class', 'method', 'interface', 'enum', 'alias', 'generator']),
  JavaScript: new Set(['function', 'class', 'method', 'generator']),
};

/** Our kinds compared with those. */
export const COMPARED_KINDS = new Set(['function', 'method', 'class', 'interface', 'struct', 'enum', 'type', 'trait']);

/** Runs ctags over a list of files; returns its compared definitions and the CPU seconds it took. */
export function runCtags(root: string, files: readonly string[]): { tags: CtagsTag[]; cpuSeconds: number } {
  // bash's `time` reports the child's user+system CPU, which node's spawnSync does not give.
  const script = `TIMEFORMAT='%U %S'; { time ctags --output-format=json --fields=+nel --extras=-{anonymous} -f - -L - 2>/dev/null > "$OUT" ; } 2> "$OUT.time"`;
  const out = join(tmpdir(), `symbols-quality-ctags-${process.pid}.json`);
  const run = spawnSync('bash', ['-c', script], { cwd: root, input: files.join('\n'), env: { ...process.env, OUT: out }, maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`ctags failed (${run.status}): ${run.stderr.toString().slice(0, 500)}`);
  const [user, system] = readFileSync(`${out}.time`, 'utf8').trim().split(/\s+/).map(Number);
  const tags: CtagsTag[] = [];
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const tag = JSON.parse(line) as CtagsTag & { _type: string };
    if (tag._type !== 'tag' || !COMPARED_CTAGS_KINDS[tag.language]?.has(tag.kind) || tag.name.startsWith('__anon')) continue;
    tags.push({
      name: tag.name,
      language: tag.language,
      path: tag.path,
      line: tag.line,
      ...(tag.end !== undefined ? { end: tag.end } : {}),
      kind: tag.kind,
      ...(tag.scope !== undefined ? { scope: tag.scope } : {}),
      ...(tag.scopeKind !== undefined ? { scopeKind: tag.scopeKind } : {}),
    });
  }
  rmSync(out, { force: true });
  rmSync(`${out}.time`, { force: true });
  return { tags, cpuSeconds: (user ?? 0) + (system ?? 0) };
}
