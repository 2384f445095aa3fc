import { parentPort } from 'node:worker_threads';
import type { ContentPlan } from '@gitdex/ports';
import { compileQuery, type CompiledQuery } from './query';
import { requirementOf, type Requirement } from './requirement';
import { findHits, type FileHits } from './verify';

/**
 * A match worker's side (match-pool.ts starts it): verifies one content at a time with the same
 * findHits as the main thread, and stops itself at the search's deadline where it can; the pool
 * terminates it where it cannot (inside one long line).
 */
export interface MatchTask {
  id: number;
  query: { text: string; regex: boolean; caseSensitive: boolean };
  plan: ContentPlan;
  content: string;
  keep: number;
  /** The search's deadline, in Date.now() milliseconds (the threads share no monotonic clock). */
  until: number;
}

export interface MatchReply {
  id: number;
  hits: FileHits;
}

/** The query of the last task, compiled once for the many contents a search sends. */
let last: { key: string; query: CompiledQuery; requires: Requirement | null } | null = null;

function compiled(task: MatchTask): { query: CompiledQuery; requires: Requirement | null } {
  const key = JSON.stringify([task.query, task.plan]);
  if (last?.key !== key) last = { key, query: compileQuery(task.query.text, task.query.regex, task.query.caseSensitive), requires: requirementOf(task.plan) };
  return last;
}

parentPort?.on('message', (task: MatchTask) => {
  const { query, requires } = compiled(task);
  const hits = findHits(task.content, query, task.keep, () => Date.now() >= task.until, requires);
  parentPort?.postMessage({ id: task.id, hits } satisfies MatchReply);
});
