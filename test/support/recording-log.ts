import type { Log, LogContext } from '@gitdex/observability';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  context: LogContext;
}

/** A Log for tests: keeps every line, so a test can see what a part said in the background. */
export function recordingLog(): Log & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const record = (level: LogLine['level']) => (context: LogContext, message: string) => {
    lines.push({ level, message, context });
  };
  return { lines, info: record('info'), warn: record('warn'), error: record('error') };
}
