// Freshness of many pushes at once: push delivered → its content readable THROUGH THE READER.
// Polling every repository through the reader would load the readers with hundreds of requests
// a second and slow down what is measured, so the ref states are watched in Elasticsearch (one
// search for all repositories every 200 ms) and a repository whose state moved to a pushed
// commit is then read through the readers' front: the probe file says "push <n>", and every push
// of that repository numbered n or less is readable from that moment (a newer head serves the
// older pushes' changes too). Resolution: the poll interval plus one read.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { MAIN, pool, type ScaleRepo } from './repos';

const POLL_MS = 200;

interface Waiting {
  seq: number;
  sentAt: number;
}

export interface Seen {
  repo: string;
  seq: number;
  sentAt: number;
  seenAt: number;
  freshnessMs: number;
}

export class FreshnessTracker {
  private readonly waiting = new Map<ScaleRepo, Waiting[]>();
  readonly seen: Seen[] = [];
  readonly errors: string[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly index: ElasticsearchIndexStore,
    private readonly readerUrl: () => string,
  ) {}

  start(): this {
    this.loop = this.run();
    return this;
  }

  /** A push was acknowledged (or redelivered with success); `sentAt` is when its webhook was first sent. */
  add(repo: ScaleRepo, seq: number, sentAt: number): void {
    const list = this.waiting.get(repo) ?? [];
    list.push({ seq, sentAt });
    this.waiting.set(repo, list);
  }

  get outstanding(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Resolves with the time the last push became readable, or null when some were not within the timeout. */
  async waitAllSeen(timeoutMs: number): Promise<number | null> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.outstanding === 0) return this.seen.reduce((max, s) => Math.max(max, s.seenAt), 0);
      await sleep(100);
    }
    return null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const began = Date.now();
      try {
        await this.tick();
      } catch (error) {
        if (this.errors.length < 20) this.errors.push(error instanceof Error ? error.message : String(error));
      }
      await sleep(Math.max(0, POLL_MS - (Date.now() - began)));
    }
  }

  private async tick(): Promise<void> {
    if (this.outstanding === 0) return;
    const states = await this.index.listRefStates();
    const headOf = new Map<number, string>();
    for (const s of states) if (s.ref === MAIN && s.status === 'ready' && s.commitSha) headOf.set(s.repositoryId, s.commitSha);
    const moved: ScaleRepo[] = [];
    for (const [repo, list] of this.waiting) {
      if (list.length === 0) continue;
      const head = headOf.get(repo.id);
      const seq = head === undefined ? undefined : repo.seqOfSha.get(head);
      if (seq !== undefined && seq >= list[0]!.seq) moved.push(repo);
    }
    await pool(moved, 8, (repo) => this.confirm(repo));
  }

  /** Reads the probe through the readers; marks every waiting push it covers as seen now. */
  private async confirm(repo: ScaleRepo): Promise<void> {
    const path = repo.probePath.split('/').map(encodeURIComponent).join('/');
    const answer = await fetch(`${this.readerUrl()}/v1/repositories/${repo.owner}/${repo.name}/files/${path}`, { signal: AbortSignal.timeout(10_000) });
    const text = await answer.text();
    const at = Date.now();
    if (answer.status !== 200) return;
    const match = /push (\d+)/.exec(text);
    if (!match) return;
    const readable = Number(match[1]);
    const list = this.waiting.get(repo) ?? [];
    const remaining: Waiting[] = [];
    for (const w of list) {
      if (w.seq <= readable) this.seen.push({ repo: repo.fullName, seq: w.seq, sentAt: w.sentAt, seenAt: at, freshnessMs: at - w.sentAt });
      else remaining.push(w);
    }
    this.waiting.set(repo, remaining);
  }
}
