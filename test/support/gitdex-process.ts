import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const MAIN = join(__dirname, '../../services/gitdex/dist/main.js');

export interface GitdexProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs the built product (`npm start`'s main) as a child process; resolves once it listens. */
export async function startGitdexProcess(env: Record<string, string>): Promise<GitdexProcess> {
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gitdex did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"[^\n]*gitdex listening/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gitdex exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
