import { randomUUID } from 'node:crypto';
import type { ToolErrorCode, ToolName } from '@gitdex/contracts';
import { PortError } from '@gitdex/ports';
import type { z } from 'zod';
import { CallScopedIndex, untilAborted } from '../index-layers/call-scope';
import type { Principal, ReaderDeps } from '../deps';
import { indexUnavailable, invalid, ToolError } from '../tool-error';
import type { ToolAnswer } from './answer';
import { markStale, waitForCommit, type WaitInput } from '../waiting/wait-for-commit';
import { TOOLS, type ToolDefinition } from './registry';

export type ToolOutcome = 'ok' | ToolErrorCode;

/** One finished call as observers see it: the metrics of its transport, the audit log (audit.ts). */
export interface ObservedCall {
  tool: ToolName;
  transport: string;
  outcome: ToolOutcome;
  seconds: number;
  /** Who called (null: anonymous) and from where, when the transport knows. */
  principal: Principal | null;
  address?: string;
  /** The arguments as the caller sent them, before parsing. */
  args: unknown;
  /** The answer of a call whose outcome is ok. */
  answer?: ToolAnswer<unknown>;
}

/** Told of every call: drives the metrics of whichever transport served it, and the audit log. */
export type ToolObserver = (call: ObservedCall) => void;

export interface CallOptions {
  transport: string;
  observe?: ToolObserver;
  /** Aborted when the caller gives up (an MCP notifications/cancelled, a closed connection): the call stops. */
  signal?: AbortSignal;
  /** The HTTP client's address: an anonymous caller's bucket of lookups of unseen repositories (deps.address), and its only name in the audit log. */
  address?: string;
}

/**
 * Runs a tool the same way for every transport: parses its input, bounds it in time
 * (an index that does not answer becomes "index unavailable", never a hang), and turns
 * every failure into a ToolError for the caller. Internal failures are logged with their
 * details and answered with a reference only.
 */
export async function callTool(deps: ReaderDeps, name: ToolName, args: unknown, principal: Principal | null, options: CallOptions): Promise<ToolAnswer<unknown>> {
  const started = process.hrtime.bigint();
  const finish = (outcome: ToolOutcome, answer?: ToolAnswer<unknown>) =>
    options.observe?.({
      tool: name,
      transport: options.transport,
      outcome,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      principal,
      ...(options.address === undefined ? {} : { address: options.address }),
      args,
      ...(answer ? { answer } : {}),
    });
  try {
    const tool = TOOLS[name];
    const input = parseInput(tool.input, args);
    // The input was parsed by this tool's own schema: any definition takes it as its own.
    const definition: ToolDefinition = tool;
    const caller = options.address !== undefined ? { ...deps, address: options.address } : deps;
    // A wait for min_commit comes before the call's deadline starts: wait_ms is the caller's own bound.
    const waited = await waitForCommit(caller, principal, input as WaitInput, options.signal);
    const answer = markStale(await withCallDeadline(caller, (scoped) => definition.run(scoped, principal, input), options.signal), waited);
    finish('ok', answer);
    return answer;
  } catch (error) {
    const toolError = asToolError(deps, name, error);
    finish(toolError.code);
    throw toolError;
  }
}

/** Parses arguments with a tool's input schema; the error names each wrong argument and what it takes. */
export function parseInput<S extends z.ZodType>(schema: S, args: unknown): z.infer<S> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return where && !issue.message.startsWith(`${where.split('.')[0]}:`) ? `${where}: ${issue.message}` : issue.message;
  });
  throw invalid(problems.join('; '));
}

class DeadlineExceeded extends Error {}

/** The caller cancelled the call: nobody waits for its answer any more. */
class CallCancelled extends Error {}

/** `work` with deps scoped to one call: aborted at limits.timeoutMs or by `cancel`, its index calls stop with it. */
export function withCallDeadline<T>(deps: ReaderDeps, work: (scoped: ReaderDeps) => Promise<T>, cancel?: AbortSignal): Promise<T> {
  return withCancellation(deps.limits.timeoutMs, cancel, (signal) => work({ ...deps, index: new CallScopedIndex(deps.index, signal), signal }));
}

/**
 * Runs `work` with a signal aborted at the deadline (reason DeadlineExceeded) or when
 * `cancel` is (reason CallCancelled), and fails with that reason at once: the work is
 * not only raced but told to stop, and its index calls stop with it (index-layers/call-scope.ts).
 */
export async function withCancellation<T>(ms: number, cancel: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded(`no answer within ${ms} ms`)), ms);
  timer.unref?.();
  const onCancel = () => controller.abort(new CallCancelled('the caller cancelled the call'));
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  try {
    controller.signal.throwIfAborted();
    return await untilAborted(work(controller.signal), controller.signal);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}

/** Bounds a piece of work in time: past `ms`, it fails as the index not answering (asToolError says so). */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`no answer within ${ms} ms`)), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function asToolError(deps: ReaderDeps, tool: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof DeadlineExceeded) {
    deps.logger?.warn({ tool, timeoutMs: deps.limits.timeoutMs }, 'reader: the index did not answer in time');
    const ms = deps.limits.timeoutMs;
    return indexUnavailable(`it did not answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`);
  }
  if (error instanceof CallCancelled) return new ToolError('UNAVAILABLE', 'The call was cancelled by the client before it finished. Call again if the answer is still needed.');
  if (error instanceof PortError && (error.code === 'UNAVAILABLE' || error.code === 'RATE_LIMITED')) {
    deps.logger?.warn({ tool, err: error }, 'reader: index unavailable');
    return indexUnavailable('it cannot be reached');
  }
  const reference = randomUUID().slice(0, 8);
  deps.logger?.error({ tool, err: error, reference }, 'reader: internal error in a tool');
  return new ToolError('INTERNAL', `Internal error in ${tool} (reference ${reference}); it was logged. Retry; if it persists, tell whoever runs gitdex, with the reference.`);
}
