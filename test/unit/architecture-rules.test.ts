// The import rules of .dependency-cruiser.cjs catch what they promise: a library importing a
// service, a core importing a framework, a cycle, contracts depending on more than zod, a
// workspace importing what its package.json does not declare (or a devDependency). Each is
// planted in a small tree of its own and must fail `depcruise`; the same tree without them passes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

const CLEAN: Record<string, string> = {
  'libs/contracts/package.json': '{ "name": "@x/contracts", "dependencies": { "zod": "*" } }',
  'services/reader/package.json': '{ "name": "@x/reader", "dependencies": { "express": "*" }, "devDependencies": { "fast-check": "*" } }',
  'libs/contracts/src/index.ts': "import { z } from 'zod';\nexport const id = z.string();\n",
  'libs/ports/src/index.ts': "import { id } from '../../contracts/src/index';\nexport const port = id;\n",
  'services/reader/src/tools/read.ts': "import { port } from '../../../../libs/ports/src/index';\nexport const read = port;\n",
  'services/reader/src/http/router.ts': "import express from 'express';\nimport { read } from '../tools/read';\nexport const router = [express, read];\n",
};

const PLANTED: Record<string, { files: Record<string, string>; rule: string }> = {
  'a library importing a service': {
    files: { 'libs/ports/src/leak.ts': "import { read } from '../../../services/reader/src/tools/read';\nexport const leak = read;\n" },
    rule: 'libs-never-import-services',
  },
  'the reader core importing express': {
    files: { 'services/reader/src/tools/list.ts': "import express from 'express';\nexport const list = express;\n" },
    rule: 'cores-know-no-framework',
  },
  'the indexer core importing prom-client': {
    files: { 'services/indexer/src/worker.ts': "import { Counter } from 'prom-client';\nexport const c = Counter;\n" },
    rule: 'cores-know-no-framework',
  },
  'contracts importing more than zod': {
    files: { 'libs/contracts/src/extra.ts': "import pino from 'pino';\nexport const log = pino;\n" },
    rule: 'contracts-depend-on-zod-only',
  },
  'a workspace importing a package its package.json does not declare': {
    files: { 'services/reader/src/http/metrics.ts': "import { Counter } from 'prom-client';\nexport const c = Counter;\n" },
    rule: 'dependencies-declared-by-their-workspace',
  },
  'production code importing a devDependency': {
    files: { 'services/reader/src/http/random.ts': "import fc from 'fast-check';\nexport const r = fc;\n" },
    rule: 'production-code-uses-no-dev-dependency',
  },
  'a cycle': {
    files: {
      'services/reader/src/tools/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'services/reader/src/tools/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    },
    rule: 'no-circular',
  },
};

function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-arch-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    // The real packages, so imports resolve and each is checked against its workspace's package.json.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    // The project's rules as they are, without the path mapping of the real tree's tsconfig.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = structuredClone(require(join(ROOT, '.dependency-cruiser.cjs'))) as { options: Record<string, unknown> };
    delete config.options.tsConfig;
    // node_modules is a link to the real tree's: keep its paths as seen from here.
    config.options.preserveSymlinks = true;
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(config));
    const run = spawnSync(process.execPath, [CLI, '--config', 'rules.json', '--output-type', 'err', 'libs', 'services'], { cwd: dir, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('architecture rules (dependency-cruiser)', () => {
  test('a tree that keeps the layers passes', () => {
    const run = cruise(CLEAN);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.stringContaining('no dependency violations') });
  });

  test.each(Object.entries(PLANTED))('%s fails the lint', (_name, planted) => {
    const run = cruise({ ...CLEAN, ...planted.files });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(planted.rule);
  });
});
