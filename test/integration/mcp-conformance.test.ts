// The official MCP conformance suite (@modelcontextprotocol/conformance) against the product's
// Streamable HTTP endpoint, started as `npm start` starts it (embedded defaults). Only the server
// scenarios that apply to gitdex run: the others exercise the reference test server's own
// tools, prompts and resources (test_error_handling, test://template/…) or capabilities gitdex
// does not declare (logging/setLevel, completion/complete); see docs/runtime.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startGitdexProcess, type GitdexProcess } from '../support/gitdex-process';

const CONFORMANCE_CLI = join(__dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];

interface ScenarioRun {
  code: number | null;
  output: string;
}

function runScenario(url: string, scenario: string): Promise<ScenarioRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CONFORMANCE_CLI, 'server', '--url', url, '--scenario', scenario], {
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('MCP conformance suite, server scenarios that apply to gitdex', () => {
  let gitdex: GitdexProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-conformance-'));
    gitdex = await startGitdexProcess({ GITDEX_DATA_DIR: dataDir, HOST: '127.0.0.1' });
  });

  afterAll(async () => {
    await gitdex?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test.each(APPLICABLE_SCENARIOS)('%s passes', async (scenario) => {
    const run = await runScenario(`${gitdex.url}/mcp`, scenario);
    expect({ scenario, code: run.code, failed: /\b0 failed\b/.test(run.output) ? 0 : run.output }).toEqual({ scenario, code: 0, failed: 0 });
    expect(run.output).toMatch(/Passed: [1-9]\d*\/\d+/);
  });

  test('the product reports the Node.js 24 runtime it runs on', async () => {
    const metrics = await (await fetch(`${gitdex.url}/metrics`)).text();
    expect(metrics).toMatch(/nodejs_version_info\{version="v24\.\d+\.\d+"/);
  });
});
