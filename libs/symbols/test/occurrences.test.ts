// Identifier occurrences: the lines find_references will return. Never inside a comment or a
// string, each marked definition, import or reference, with UTF-16 columns that slice the name.
import { extractSymbols } from '../src';
import { FIXTURES } from './fixtures';

const at = (code: string, line: number, start: number, end: number) => code.split('\n')[line - 1]!.slice(start, end);

describe('occurrences', () => {
  it.each(FIXTURES.map((f) => [`${f.language} (${f.path})`, f] as const))('slice exactly their names in %s', async (_, fixture) => {
    const { occurrences, definitions } = await extractSymbols(fixture.code, fixture.path, fixture.language);
    expect(occurrences.length).toBeGreaterThan(0);
    for (const o of occurrences) expect({ ...o, text: at(fixture.code, o.line, o.start, o.end) }).toEqual({ ...o, text: o.name });
    // Every definition's name occurs as a definition on its first line or within its range.
    for (const d of definitions.filter((d) => !/[.\\]/.test(d.name))) {
      expect(occurrences.some((o) => o.role === 'definition' && o.name === d.name && o.line >= d.line && o.line <= d.endLine)).toBe(true);
    }
  });

  it('never come from comments or strings, in any language', async () => {
    const cases: Array<[string, string, string]> = [
      ['TypeScript', 'a.ts', '// hidden\nconst s = "hidden"; /* hidden */ const t = `hidden ${1}`;\nshown();\n'],
      ['Python', 'a.py', '# hidden\n"""hidden"""\nx = f"hidden"\nshown()\n'],
      ['Go', 'a.go', 'package p\n// hidden\nvar s = "hidden" + `hidden`\nfunc f() { shown() }\n'],
      ['Java', 'A.java', 'class A { /** hidden */ String s = "hidden"; void f() { shown(); } }\n'],
      ['Rust', 'a.rs', '/// hidden\nfn f() { let s = "hidden"; shown(); } // hidden\n'],
      ['C', 'a.c', '/* hidden */\nvoid f(void) { char *s = "hidden"; shown(); }\n'],
      ['C++', 'a.cpp', '// hidden\nvoid f() { auto s = R"(hidden)"; shown(); }\n'],
      ['C#', 'A.cs', '// hidden\nclass A { string s = "hidden"; void F() { shown(); } }\n'],
      ['Ruby', 'a.rb', "# hidden\ns = 'hidden'\nshown\n"],
      ['PHP', 'a.php', '<?php\n// hidden\n$s = "hidden";\nshown();\n'],
      ['JavaScript', 'a.js', "// hidden\nconst s = 'hidden'; const r = /hidden/;\nshown();\n"],
    ];
    for (const [language, path, code] of cases) {
      const names = (await extractSymbols(code, path, language)).occurrences.map((o) => o.name);
      expect({ language, hidden: names.includes('hidden'), shown: names.includes('shown') }).toEqual({ language, hidden: false, shown: true });
    }
  });

  it('mark imports, definitions and references', async () => {
    const code = "import { join } from 'node:path';\nexport function resolve(p: string) {\n  return join(p, 'x');\n}\n";
    const { occurrences } = await extractSymbols(code, 'r.ts', 'TypeScript');
    expect(occurrences.filter((o) => o.name === 'join').map((o) => [o.line, o.role])).toEqual([
      [1, 'import'],
      [3, 'reference'],
    ]);
    expect(occurrences.find((o) => o.name === 'resolve')).toMatchObject({ line: 2, role: 'definition' });
    const py = 'from os.path import join as j\nimport sys\nprint(j(sys.argv[0]))\n';
    const roles = (await extractSymbols(py, 'x.py', 'Python')).occurrences.map((o) => `${o.name}:${o.line}:${o.role}`);
    expect(roles).toEqual(expect.arrayContaining(['join:1:import', 'j:1:import', 'sys:2:import', 'j:3:reference', 'sys:3:reference']));
  });

  it('count columns in UTF-16 code units, after astral characters too', async () => {
    const code = "const s = '😀é'; const naïve = 1; naïve + 1;\n";
    const { occurrences } = await extractSymbols(code, 'u.ts', 'TypeScript');
    const naive = occurrences.filter((o) => o.name === 'naïve');
    expect(naive).toHaveLength(2);
    for (const o of naive) expect(at(code, o.line, o.start, o.end)).toBe('naïve');
  });
});
