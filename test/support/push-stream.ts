// The stream of pushes a fault is measured under: one loop per repository of the fault pipeline,
// every delivery logged with its outcome (moved out of fault-pipeline.ts unchanged).
import { setTimeout as sleep } from 'node:timers/promises';
import { commitFiles, type FileChanges } from '../github-standin/fixture-repos';
import { MAIN, type FaultPipeline } from './fault-pipeline';

export interface StreamRepo {
  owner: string;
  name: string;
  fullName: string;
  dir: string;
  id: number;
  pushes: number;
  notes: string[];
}

export interface DeliveryLog {
  id: string;
  repository: string;
  after: string;
  /** Status of the first attempt; null when the webhook could not be reached. */
  status: number | null;
  error: string | null;
  at: number;
  /** Answered 202 at the first attempt. */
  acknowledged: boolean;
  /** Statuses of the redeliveries (null: not reachable). */
  redeliveries: (number | null)[];
  /** A redelivery got a 202. */
  redeliveredOk: boolean;
}

/** The files of push number `n` to a repository: a few modules change, notes come and go. */
function changesOf(repo: StreamRepo, n: number): FileChanges {
  const changes: FileChanges = {
    'README.md': `# ${repo.fullName}\n\nPush ${n}.\n`,
    [`src/module${n % 6}.ts`]: `// ${repo.fullName}, push ${n}\nexport const value${n % 6} = ${n};\n`,
  };
  if (n % 3 === 0) {
    const note = `notes/n${n}.md`;
    changes[note] = `note of push ${n}\n`;
    repo.notes.push(note);
    if (repo.notes.length > 4) changes[repo.notes.shift()!] = null;
  }
  return changes;
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Pushes to every repository in parallel (one loop each) until stopped, logging every delivery. */
export class PushStream {
  readonly deliveries: DeliveryLog[] = [];
  readonly errors: string[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly pipeline: FaultPipeline,
    private readonly intervalMs: number,
  ) {}

  start(): this {
    this.loops = this.pipeline.repos.map((repo) => this.loop(repo));
    return this;
  }

  get acknowledgedCount(): number {
    return this.deliveries.filter((d) => d.acknowledged).length;
  }

  /** Stops pushing; resolves once the pushes in flight got their answers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async loop(repo: StreamRepo): Promise<void> {
    while (!this.stopped) {
      try {
        repo.pushes += 1;
        await commitFiles(repo.dir, changesOf(repo, repo.pushes), `push ${repo.pushes}`);
        const at = Date.now();
        const { payload, delivery } = await this.pipeline.standIn.push(repo.owner, repo.name, { ref: MAIN });
        this.deliveries.push({
          id: delivery.id,
          repository: repo.fullName,
          after: payload.after,
          status: delivery.status,
          error: delivery.error,
          at,
          acknowledged: delivery.status === 202,
          redeliveries: [],
          redeliveredOk: false,
        });
      } catch (error) {
        this.errors.push(`${repo.fullName}: ${errorText(error)}`);
      }
      if (!this.stopped) await sleep(Math.round(this.intervalMs * (0.5 + Math.random())));
    }
  }
}
