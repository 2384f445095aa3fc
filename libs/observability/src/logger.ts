import { isatty } from 'node:tty';
import pino, { type Logger, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

export interface LoggerOptions {
  level?: LevelWithSilent;
  name?: string;
  /** File descriptor the lines go to: 1 (stdout, the default) or 2 (stderr). */
  destination?: number;
  /** json for machines; pretty for a person at a terminal. Default: pretty when the destination is a TTY. */
  format?: 'json' | 'pretty';
}

/**
 * Log lines: JSON for log shippers, readable lines when a person watches a terminal. Secrets
 * never reach a log line: the known secret-bearing fields are redacted wherever they appear.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const fd = options.destination ?? 1;
  const format = options.format ?? (isatty(fd) ? 'pretty' : 'json');
  const stream =
    format === 'pretty'
      ? pretty({ destination: fd, colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,name', singleLine: true })
      : pino.destination({ dest: fd, sync: false });
  return pino(
    {
      name: options.name ?? 'gitdex',
      level: options.level ?? 'info',
      redact: {
        // Top-level fields too: '*.token' matches one level down only.
        paths: [
          'authorization',
          'token',
          'secret',
          'secrets',
          'privateKey',
          '*.authorization',
          '*.Authorization',
          'headers.authorization',
          '*.token',
          '*.secret',
          '*.secrets',
          '*.privateKey',
          'config.GITHUB_TOKEN',
          'config.GITHUB_APP_PRIVATE_KEY',
          'config.GITHUB_WEBHOOK_SECRETS',
          'config.GITDEX_READER_TOKENS',
        ],
        censor: '[redacted]',
      },
    },
    stream,
  );
}
