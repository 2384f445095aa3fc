import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Reads committed file contents through one `git cat-file --batch` process: what a
 * repository holds, whatever happened to the files on disk since (node_modules changes
 * under a running bench when someone runs npm install).
 */
export class BlobReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: { resolve(content: Buffer): void; reject(error: Error): void; spec: string }[] = [];

  constructor(gitDir: string) {
    this.child = spawn('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    this.child.once('close', () => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`git cat-file ended before answering ${w.spec}`));
    });
  }

  /** The content of `path` at `rev` (e.g. "main"). */
  read(rev: string, path: string): Promise<Buffer> {
    const spec = `${rev}:${path}`;
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, spec });
      this.child.stdin.write(`${spec}\n`);
    });
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.buffer.subarray(0, newline).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(newline + 1);
        const w = this.waiting.shift()!;
        w.reject(new Error(`${w.spec}: ${header}`));
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buffer.length < newline + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.waiting.shift()!.resolve(content);
    }
  }

  close(): void {
    this.child.stdin.end();
  }
}
