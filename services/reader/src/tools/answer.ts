import type { Freshness } from '@gitdex/contracts';
import { shortSha } from '../freshness';

/** What a tool gives back: structured content (per its output schema) and the same, readable, as text. */
export interface ToolAnswer<T> {
  structured: T;
  text: string;
}

/** A line that says a newer push is waiting to be indexed, or '' when the answer is current. */
export function pendingLine(freshness: Freshness): string {
  return freshness.pending ? `\nNote: a newer push (${shortSha(freshness.pending_commit)}) is being indexed; this shows ${shortSha(freshness.commit)}.` : '';
}
