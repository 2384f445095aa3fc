/** Fields of a log line: what happened to what, never a secret. */
export type LogContext = Record<string, unknown>;

/**
 * The one log shape every part that can fail in the background takes (adapters, workers, the
 * reader, the webhook): pino's Logger fits it, and so does a test's recorder.
 */
export interface Log {
  info(context: LogContext, message: string): void;
  warn(context: LogContext, message: string): void;
  error(context: LogContext, message: string): void;
}

/** For a caller that decided, on purpose, that nothing is worth telling (a throwaway CLI probe). */
export const silentLog: Log = { info: ignore, warn: ignore, error: ignore };

function ignore(): void {
  // Deliberately nothing: see silentLog.
}

/** An error as log fields: its message and code, not its whole object graph. */
export function errorFields(error: unknown): LogContext {
  if (!(error instanceof Error)) return { error: String(error) };
  const code = (error as { code?: unknown }).code;
  return { error: error.message, errorName: error.name, ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}) };
}
