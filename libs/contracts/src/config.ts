import { z } from 'zod';

const csv = (value: string) => value.split(',').map((part) => part.trim()).filter(Boolean);
const positiveInt = z.coerce.number().int().positive();

/**
 * Every environment variable gitdex reads, with its default. Only entry points call
 * loadConfig; libraries take the typed parts they need.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  GITDEX_DATA_DIR: z.string().min(1).default('.gitdex'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KAFKA_BROKERS: z.string().optional().transform((v) => (v ? csv(v) : undefined)),
  KAFKA_CLIENT_ID: z.string().default('gitdex'),
  KAFKA_PARTITIONS: positiveInt.default(12),
  ELASTICSEARCH_URL: z.string().url().optional(),
  ELASTICSEARCH_INDEX_PREFIX: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, - and _').default('gitdex'),
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  GITHUB_WEB_URL: z.string().url().default('https://github.com'),
  GITHUB_TOKEN: z.string().min(1).optional(),
  GITHUB_APP_ID: z.coerce.number().int().positive().optional(),
  GITHUB_APP_PRIVATE_KEY: z.string().min(1).optional(),
  GITHUB_WEBHOOK_SECRETS: z.string().optional().transform((v) => (v ? csv(v) : [])),
  GITDEX_INDEXED_REFS: z.string().default('default').transform(csv),
  GITDEX_MAX_FILE_BYTES: positiveInt.default(1024 * 1024),
  GITDEX_MAX_ATTEMPTS: positiveInt.default(5),
  GITDEX_READ_MAX_LINES: positiveInt.default(400),
  GITDEX_READ_MAX_CHARS: positiveInt.default(16000),
  GITDEX_READER_TOKENS: z.string().optional(),
  GITDEX_ALLOWED_ORIGINS: z.string().optional().transform((v) => (v ? csv(v) : [])),
  GITDEX_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().nonnegative().default(0),
});
export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; the error names each wrong variable and what is wrong with it. */
export function loadEnv(env: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? '?'), message: issue.message })));
  }
  const value = parsed.data;
  const problems: { variable: string; message: string }[] = [];
  if ((value.GITHUB_APP_ID === undefined) !== (value.GITHUB_APP_PRIVATE_KEY === undefined)) {
    problems.push({ variable: value.GITHUB_APP_ID === undefined ? 'GITHUB_APP_ID' : 'GITHUB_APP_PRIVATE_KEY', message: 'a GitHub App needs both GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY' });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return value;
}
