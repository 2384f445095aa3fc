// The image's ENTRYPOINT, run as the image runs it (from the Dockerfile, in the directory that is
// the image's WORKDIR), with the arguments `docker run gitdex ARGS` would give it: a command is
// the CLI and ends with its exit code; no argument or `serve` is the services.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const entrypoint = (JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))![1]!) as string[]).map((word) => (word === 'node' ? process.execPath : word));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function dockerRun(args: string[], env: Record<string, string>, until?: (stdout: string) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(entrypoint[0]!, [...entrypoint.slice(1), ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until?.(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the entry point with ${args.join(' ')} did not finish\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the image entry point', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-entry-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs `status` as the CLI: its JSON on stdout, exit 0, no server', async () => {
    const run = await dockerRun(['status', '--json'], { GITDEX_DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    const status = JSON.parse(run.stdout) as { summary: { repositories: number; index: string } };
    expect(status.summary).toMatchObject({ repositories: 0, index: 'sqlite' });
    expect(run.stdout + run.stderr).not.toMatch(/listening/);
  });

  it('runs `reindex` as the CLI (the Job of deploy/kubernetes/jobs)', async () => {
    const run = await dockerRun(['reindex'], { GITDEX_DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/nothing to reindex/);
  });

  it('answers an unknown command with the CLI usage error instead of starting a server', async () => {
    const run = await dockerRun(['statuss'], { GITDEX_DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'statuss'/);
  });

  it.each([[[]], [['serve']]])('runs the services for %j', async (args: string[]) => {
    const run = await dockerRun(args, { GITDEX_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }, (stdout) => /listening/.test(stdout));
    expect(run.stdout).toMatch(/listening/);
  });
});
