/** Inputs meant to stall or crash a parser, shared by the pool's tests and its bench. */
export const HOSTILE: Array<{
  name: string;
  path: string;
  language: string; /** What it comes back as; noise may parse or pass the time limit, depending on the machine. */
  outcome: ReadonlyArray<'parsed' | 'skipped' | 'failed'>;
  content: () => string;
}> = [
  // A minified bundle: a megabyte on one line.
  { name: '1 MiB on one line', path: 'bundle.min.js', language: 'JavaScript', outcome: ['skipped'], content: () => 'var a=function(b){return b+1};'.repeat(35_000).slice(0, 1 << 20) },
  // Long, but under the line limit: parsed in full.
  { name: '9,000 characters per line', path: 'wide.js', language: 'JavaScript', outcome: ['parsed'], content: () => `${'a.b(c, "d") + '.repeat(600)}1;\n`.repeat(8) },
  { name: 'nesting 50,000 deep', path: 'deep.js', language: 'JavaScript', outcome: ['parsed'], content: () => `x = ${'[\n'.repeat(50_000)}${']\n'.repeat(50_000)};` },
  { name: 'nesting 20,000 deep (Python)', path: 'deep.py', language: 'Python', outcome: ['parsed'], content: () => `x = ${'(\n'.repeat(20_000)}1${')\n'.repeat(20_000)}` },
  {
    name: 'invalid UTF-8',
    path: 'bytes.c',
    language: 'C',
    outcome: ['parsed'],
    content: () => Buffer.concat([Buffer.from('int f(void) {\n'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x00, 0x80]), Buffer.from('\n return 0; }\n')]).toString('utf8'),
  },
  // Namespaces opened in preprocessor branches, each loose in the error node and holding the rest.
  { name: 'loose namespaces (C++)', path: 'storm.h', language: 'C++', outcome: ['parsed', 'failed'], content: () => '#ifdef X\nnamespace a {\n#endif\nvoid f() {}\n'.repeat(2_000) },
  {
    name: 'error storm (100 KB of noise)',
    path: 'noise.cpp',
    language: 'C++',
    outcome: ['parsed', 'failed'],
    content: () => {
      // A fixed pseudo-random stream: the same noise on every run.
      let seed = 42;
      const pick = '{}()[]<>;:,.#"\'/*-+=!?&|^~%@\\\n \tabcXYZ019';
      let out = '';
      while (out.length < 100_000) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        out += pick[seed % pick.length];
      }
      return out;
    },
  },
];
