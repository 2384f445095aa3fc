import type { Database } from 'better-sqlite3';
import type { Snapshot, SuggestCandidate } from '@gitdex/ports';
import { prepareContentStatements, type ContentStatements } from './content-search';
import { prepareStatements, type Statements, type Stmt } from './statements';
import { prepareLayeredSuggest } from './suggest';
import { LAYERED } from './visibility';

/** The statements a snapshot is read with, and its own scope. */
export interface SnapshotView {
  st: Statements;
  content: ContentStatements;
  /** The snapshot's own scope (-1 when a layered ref holds no version of its own). */
  s: number;
  /** Set for a layered snapshot: its suggestion statement, with the underlay bound. */
  layeredSuggest?: Stmt<SuggestCandidate>;
}

/** The statements of layered reads (visibility LAYERED), prepared on first use. */
export interface LayeredStatements {
  st: Statements;
  content: ContentStatements;
  suggest: Stmt<SuggestCandidate>;
}

export function prepareLayeredStatements(db: Database): LayeredStatements {
  return { st: prepareStatements(db, LAYERED), content: prepareContentStatements(db, LAYERED), suggest: prepareLayeredSuggest(db) };
}

interface Runnable {
  all(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

const isStatement = (value: unknown): value is Runnable => typeof (value as Runnable | null)?.all === 'function' && typeof (value as Runnable).get === 'function';

/** A statement that adds `extra` to the named parameters of every call. */
function bind(statement: Runnable, extra: Record<string, unknown>): Runnable {
  const merged = (params: unknown) => ({ ...(params as object | undefined), ...extra });
  return { all: (params) => statement.all(merged(params)), get: (params) => statement.get(merged(params)), run: (params) => statement.run(merged(params)) };
}

/** Every statement of a set with the underlay's parameters bound: callers pass {s, g, …} as for a plain read. */
function bindAll<T extends object>(statements: T, extra: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(statements).map(([name, value]) => [name, isStatement(value) ? bind(value, extra) : value])) as T;
}

/** The view of a layered snapshot: @us, @ug and @shadowed bound; null when neither scope exists. */
export function layeredView(layered: LayeredStatements, snapshot: Snapshot, scopeOf: (ref: string) => number | undefined): SnapshotView | null {
  const under = snapshot.underlay;
  if (!under) throw new Error('layeredView needs a snapshot with an underlay');
  const s = scopeOf(snapshot.ref);
  const us = scopeOf(under.ref);
  if (s === undefined && us === undefined) return null;
  const extra = { us: us ?? -1, ug: under.generation, shadowed: JSON.stringify(under.shadowed) };
  return {
    st: bindAll(layered.st, extra),
    content: bindAll(layered.content, extra),
    s: s ?? -1,
    layeredSuggest: bind(layered.suggest, extra) as unknown as Stmt<SuggestCandidate>,
  };
}
