import pino, { type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/**
 * JSON logs on stdout. Secrets never reach a log line: the known secret-bearing
 * fields are redacted wherever they appear.
 */
export function createLogger(options: { level?: LevelWithSilent; name?: string; destination?: number } = {}): Logger {
  return pino(
    {
    name: options.name ?? 'gitdex',
    level: options.level ?? 'info',
    redact: {
      paths: ['*.authorization', '*.Authorization', 'headers.authorization', '*.token', '*.secret', '*.secrets', '*.privateKey', 'config.GITHUB_TOKEN', 'config.GITHUB_APP_PRIVATE_KEY', 'config.GITHUB_WEBHOOK_SECRETS', 'config.GITDEX_READER_TOKENS'],
      censor: '[redacted]',
    },
    },
    pino.destination({ dest: options.destination ?? 1, sync: false }),
  );
}
