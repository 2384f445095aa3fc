import { createWriteStream, openSync } from 'node:fs';
import type { ObservedCall, ToolObserver, ToolOutcome } from './tools/call-tool';

/**
 * One line of the audit log: who read what, how it went and how long it took. Built from the
 * call as the caller sent it (a private repository a caller may not read is logged by the name
 * they asked for, with the not-found outcome they were given), and never from credentials:
 * a caller is named by its token's name, never by the token.
 */
export interface AuditRecord {
  time: string;
  /** The token's name (the principal's id), or "anonymous". */
  who: string;
  /** The caller's network address, where the transport has one (HTTP). */
  address?: string;
  transport: string;
  tool: string;
  repository?: string | string[];
  path?: string;
  query?: string;
  outcome: ToolOutcome;
  /** Items answered: files found, entries listed, repositories, suggestions; 1 for one file or overview; 0 on error. */
  results: number;
  ms: number;
}

/** Longest argument text written: a line stays readable whatever a caller sends. */
const MAX_FIELD_CHARS = 512;

/** Answer fields that hold a call's list of results, per tool shape. */
const RESULT_LISTS = ['files', 'entries', 'repositories', 'suggestions'] as const;

export function auditRecord(call: ObservedCall, now: Date): AuditRecord {
  const args = (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_FIELD_CHARS) : undefined);
  const repositories = Array.isArray(args.repositories)
    ? args.repositories
        .slice(0, 100)
        .map(text)
        .filter((name): name is string => name !== undefined)
    : undefined;
  const repository = text(args.repository) ?? (repositories && repositories.length > 0 ? repositories : undefined);
  const path = text(args.path) ?? text(args.folder);
  const query = text(args.query);
  return {
    time: now.toISOString(),
    who: call.principal ? call.principal.id : 'anonymous',
    ...(call.address ? { address: call.address } : {}),
    transport: call.transport,
    tool: call.tool,
    ...(repository !== undefined ? { repository } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(query !== undefined ? { query } : {}),
    outcome: call.outcome,
    results: resultCount(call),
    ms: Math.round(call.seconds * 10_000) / 10,
  };
}

function resultCount(call: ObservedCall): number {
  if (call.outcome !== 'ok' || !call.answer) return 0;
  const structured = call.answer.structured as Record<string, unknown> | null;
  for (const field of RESULT_LISTS) {
    const list = structured?.[field];
    if (Array.isArray(list)) return list.length;
  }
  return 1;
}

/** Where audit lines go: GITDEX_AUDIT_LOG is off (default), stdout, or a file path (appended to). */
export type AuditDestination = 'off' | 'stdout' | { file: string };

export function parseAuditDestination(setting: string | undefined): AuditDestination {
  const value = (setting ?? '').trim();
  if (value === '' || value === 'off') return 'off';
  if (value === 'stdout') return 'stdout';
  return { file: value };
}

export interface AuditLog {
  observe: ToolObserver;
  close(): Promise<void>;
}

/**
 * An observer writing one JSON line per call to stdout or a file. The file is opened at once
 * (for appending), so a path that cannot be written fails the start, not the first read; lines
 * then go through one stream (a later write error is reported once to `onError`: the calls
 * themselves never fail because of the log).
 */
export function auditLog(destination: Exclude<AuditDestination, 'off'>, options: { now?: () => Date; onError?: (error: Error) => void } = {}): AuditLog {
  const now = options.now ?? (() => new Date());
  if (destination === 'stdout') {
    return { observe: (call) => void process.stdout.write(`${JSON.stringify(auditRecord(call, now()))}\n`), close: () => Promise.resolve() };
  }
  const stream = createWriteStream(destination.file, { fd: openSync(destination.file, 'a') });
  let reported = false;
  stream.on('error', (error) => {
    if (!reported) options.onError?.(error);
    reported = true;
  });
  return {
    observe: (call) => void stream.write(`${JSON.stringify(auditRecord(call, now()))}\n`),
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
