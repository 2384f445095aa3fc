import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { engineSecurityFields, engineSecurityProblems } from './engine-security';
import { parsePublishedSites, type PublishedSite } from './published-sites';

const csv = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
const positiveInt = z.coerce.number().int().positive();

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
/** A duration in seconds: a number of seconds, or a number with a unit s, m, h or d (`90m`, `24h`). */
const durationSeconds = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?\s*[smhd]?$/i, 'a duration: seconds, or a number with s, m, h or d (e.g. 24h)')
  .transform((text) => {
    const unit = /[smhd]$/i.exec(text)?.[0]?.toLowerCase() ?? 's';
    return Math.round(Number.parseFloat(text) * (DURATION_UNITS[unit] ?? 1));
  });
const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' }).transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * A reader bearer token and what it may read. Public repositories are readable by every
 * caller; `repositories` adds private ones: "*", "owner/*" or "owner/name", lower-cased.
 */
export interface ReaderTokenSpec {
  /** Who the token stands for: the principal id in logs, metrics and rate limits (never the token). */
  name: string;
  token: string;
  repositories: string[];
}

/** Shortest token the configuration accepts: a guessable token is no lock. */
export const MIN_READER_TOKEN_CHARS = 16;
/** A webhook secret shorter than this is refused at start: it signs what the indexer trusts. */
export const MIN_WEBHOOK_SECRET_CHARS = 16;

const TOKEN_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const TOKEN_CHARS = /^[\x21-\x7e]+$/;
const REPOSITORY_PATTERN = /^(\*|[A-Za-z0-9._-]+\/(\*|[A-Za-z0-9._-]+))$/;
const PATTERN_HELP = 'owner/name, owner/* or *';

/**
 * Parses GITDEX_READER_TOKENS. The form is `name:token=patterns`, entries separated by ";"
 * (or new lines), patterns by ",": `alice:3f9a…=acme/*,octo/hello; ci:77ab…=*`. The name
 * ends at the first ":", the patterns start after the last "=", so a token may hold any
 * visible ASCII character but ";" (base64 padding included); `=public` grants nothing
 * private. A value without "=" or ";" is the older form `name:token,name:token` (or bare
 * tokens): public repositories only. Problems never quote a token.
 */
export function parseReaderTokenList(text: string): { tokens: ReaderTokenSpec[]; problems: string[] } {
  const tokens: ReaderTokenSpec[] = [];
  const problems: string[] = [];
  if (!/[=;\n]/.test(text)) {
    csv(text).forEach((part, i) => {
      const colon = part.indexOf(':');
      const name = colon > 0 ? part.slice(0, colon) : `token-${i + 1}`;
      const token = colon > 0 ? part.slice(colon + 1) : part;
      const problem = tokenProblem(name, token);
      if (problem) problems.push(`entry ${i + 1}: ${problem}`);
      else tokens.push({ name, token, repositories: [] });
    });
    return { tokens, problems: [...problems, ...duplicates(tokens)] };
  }
  const entries = text
    .split(/[;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
  entries.forEach((entry, i) => {
    const where = `entry ${i + 1}`;
    const colon = entry.indexOf(':');
    if (colon <= 0) {
      problems.push(`${where}: write it as name:token=repositories (no name before ":")`);
      return;
    }
    const name = entry.slice(0, colon);
    const rest = entry.slice(colon + 1);
    const equals = rest.lastIndexOf('=');
    if (equals < 0) {
      problems.push(`${where} (${TOKEN_NAME.test(name) ? name : 'unnamed'}): end it with "=" and the repositories it may read (${PATTERN_HELP}, or public)`);
      return;
    }
    const token = rest.slice(0, equals);
    const problem = tokenProblem(name, token);
    if (problem) {
      problems.push(`${where}: ${problem}`);
      return;
    }
    const scope = rest.slice(equals + 1).trim();
    if (scope === '') {
      problems.push(`${where} (${name}): nothing after the last "=": give the repositories it may read (${PATTERN_HELP}, or public); a token that ends in "=" still needs them after another "="`);
      return;
    }
    const repositories = patternsOf(scope.toLowerCase() === 'public' ? [] : scope.split(','), `${where} (${name})`, problems);
    if (repositories) tokens.push({ name, token, repositories });
  });
  return { tokens, problems: [...problems, ...duplicates(tokens)] };
}

const TokenFileSchema = z.array(
  z.strictObject({
    name: z.string().regex(TOKEN_NAME, 'letters, digits, ".", "_" and "-", at most 64'),
    token: z.string().regex(TOKEN_CHARS, 'visible ASCII characters, no spaces'),
    repositories: z.array(z.string()),
  }),
);

/** GITDEX_READER_TOKENS_FILE: a JSON array of {"name", "token", "repositories": ["acme/*"]}. */
export function parseReaderTokenFile(json: string): { tokens: ReaderTokenSpec[]; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { tokens: [], problems: ['not valid JSON: write an array of {"name", "token", "repositories": ["owner/*"]}'] };
  }
  const parsed = TokenFileSchema.safeParse(value);
  if (!parsed.success) {
    // Issue paths name the entry and field; the value (maybe a token) is never quoted.
    return {
      tokens: [],
      problems: parsed.error.issues.map(
        (issue) =>
          `${issue.path.length > 0 ? `entry ${issue.path.map((p) => (typeof p === 'number' ? p + 1 : String(p))).join('.')}` : 'the file'}: ${issue.code === 'invalid_type' ? issue.message.replace(/, received .*/, '') : issue.message}`,
      ),
    };
  }
  const problems: string[] = [];
  const tokens: ReaderTokenSpec[] = [];
  parsed.data.forEach((entry, i) => {
    const repositories = patternsOf(entry.repositories, `entry ${i + 1} (${entry.name})`, problems);
    if (repositories) tokens.push({ name: entry.name, token: entry.token, repositories });
  });
  return { tokens, problems: [...problems, ...duplicates(tokens)] };
}

function tokenProblem(name: string, token: string): string | null {
  if (!TOKEN_NAME.test(name)) return 'the name (before ":") takes letters, digits, ".", "_" and "-", at most 64';
  if (token === '') return `${name}: the token is empty`;
  if (!TOKEN_CHARS.test(token)) return `${name}: the token holds a space or a character that is not visible ASCII`;
  return null;
}

function patternsOf(items: string[], where: string, problems: string[]): string[] | null {
  const patterns: string[] = [];
  let ok = true;
  items.forEach((item, i) => {
    const pattern = item.trim();
    // The pattern is not quoted: a token pasted in the wrong place must not reach a log.
    if (!REPOSITORY_PATTERN.test(pattern)) {
      problems.push(`${where}: repository pattern ${i + 1} is not ${PATTERN_HELP}`);
      ok = false;
    } else patterns.push(pattern.toLowerCase());
  });
  return ok ? [...new Set(patterns)] : null;
}

function duplicates(tokens: ReaderTokenSpec[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const values = new Map<string, string>();
  for (const { name, token } of tokens) {
    if (names.has(name)) problems.push(`the name ${name} is used twice`);
    names.add(name);
    const other = values.get(token);
    if (other !== undefined) problems.push(`${other} and ${name} have the same token`);
    values.set(token, name);
  }
  return problems;
}

type Issues = z.RefinementCtx<string | undefined>;

function publishedSites(text: string | undefined, ctx: Issues): PublishedSite[] {
  if (!text) return [];
  const { sites, problems } = parsePublishedSites(text);
  for (const message of problems) ctx.issues.push({ code: 'custom', message, input: '' });
  return sites;
}

function readerTokens(text: string | undefined, ctx: Issues): ReaderTokenSpec[] {
  if (!text) return [];
  const { tokens, problems } = parseReaderTokenList(text);
  for (const message of problems) ctx.issues.push({ code: 'custom', message, input: '' });
  return tokens;
}

function readerTokensFile(path: string | undefined, ctx: Issues): ReaderTokenSpec[] {
  if (!path) return [];
  let json: string;
  try {
    json = readFileSync(path, 'utf8');
  } catch (error) {
    ctx.issues.push({ code: 'custom', message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, input: '' });
    return [];
  }
  const { tokens, problems } = parseReaderTokenFile(json);
  for (const message of problems) ctx.issues.push({ code: 'custom', message, input: '' });
  return tokens;
}

/** GITDEX_TOKEN_ENCRYPTION_KEY as its 32 bytes (64 hex digits or base64); null when it is not that. */
export function encryptionKeyBytes(text: string): Uint8Array | null {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : null;
  return bytes && bytes.length === 32 ? new Uint8Array(bytes) : null;
}

/**
 * Every environment variable gitdex reads, with its default. Only entry points call
 * loadConfig; libraries take the typed parts they need.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  GITDEX_DATA_DIR: z.string().min(1).default('.gitdex'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KAFKA_BROKERS: z
    .string()
    .optional()
    .transform((v) => (v ? csv(v) : undefined)),
  KAFKA_CLIENT_ID: z.string().default('gitdex'),
  KAFKA_TOPIC: z
    .string()
    .regex(/^[a-zA-Z0-9._-]+$/, 'letters, digits, ., _ and -')
    .default('gitdex.push.v1'),
  KAFKA_GROUP_ID: z.string().min(1).default('gitdex-indexer'),
  KAFKA_PARTITIONS: positiveInt.default(12),
  /** Replicas of the topics gitdex creates; unset: 3 (with min.insync.replicas=2) on a cluster of 3+ brokers, else the broker's default. */
  KAFKA_REPLICATION_FACTOR: positiveInt.optional(),
  /** One URL, or a comma-separated list of the cluster's nodes (the client spreads requests and fails over). */
  ELASTICSEARCH_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || csv(v).every((url) => z.string().url().safeParse(url).success), 'a URL or a comma-separated list of URLs'),
  /** Replicas of each index shard; unset: one as soon as the cluster has a second data node (auto_expand_replicas 0-1). */
  ELASTICSEARCH_REPLICAS: z.coerce.number().int().nonnegative().optional(),
  ELASTICSEARCH_INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, - and _')
    .default('gitdex'),
  /** False on a shared cluster whose operator puts templates and indices (deploy/elasticsearch/apply.sh): gitdex only checks them at start. */
  GITDEX_MANAGE_TEMPLATES: flag.default(true),
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  GITHUB_WEB_URL: z.string().url().default('https://github.com'),
  GITHUB_TOKEN: z.string().min(1).optional(),
  GITHUB_APP_ID: z.coerce.number().int().positive().optional(),
  GITHUB_APP_PRIVATE_KEY: z.string().min(1).optional(),
  GITHUB_WEBHOOK_SECRETS: z
    .string()
    .optional()
    .transform((v) => (v ? csv(v) : [])),
  GITDEX_INDEXED_REFS: z.string().default('default').transform(csv),
  /** Pull request heads indexed as refs/pull/N/head: `open` ones, or `off`. */
  GITDEX_INDEXED_PULLS: z.enum(['open', 'off'], { error: 'open or off' }).default('open'),
  /** How long a closed pull request's head stays readable, in seconds (given as a duration such as 24h). */
  GITDEX_CLOSED_PULL_RETENTION: durationSeconds.default(24 * 3600),
  GITDEX_MAX_FILE_BYTES: positiveInt.default(1024 * 1024),
  GITDEX_MAX_ATTEMPTS: positiveInt.default(5),
  /** Older commits of each ref kept readable (by sha, prefix or ref~N) besides the newest. */
  GITDEX_RETAINED_COMMITS: z.coerce.number().int().min(1).max(1000).default(3),
  /** How often the reader reads the ref states of a repository someone waits on (min_commit, subscriptions, changes), in ms. */
  GITDEX_WAIT_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  /** Commits of each ref's history backfilled on its first index (list_commits, compare, blame); 0 keeps no history. */
  GITDEX_HISTORY_DEPTH: z.coerce.number().int().min(0).max(100_000).default(500),
  /** Definitions extracted from each parseable blob at index time (find_symbol, file_outline); false writes content only. */
  GITDEX_SYMBOLS: flag.default(true),
  GITDEX_RETRY_BUDGET_SECONDS: z.coerce.number().int().nonnegative().default(600),
  /** Repositories an indexer process handles at the same time (each one's events stay in order). */
  GITDEX_INDEXER_REPOSITORIES_AT_ONCE: positiveInt.default(32),
  /** Events an indexer process holds fetched and unfinished; it stops fetching at this many (Kafka). */
  GITDEX_INDEXER_IN_FLIGHT_EVENTS: positiveInt.default(1000),
  /** Bytes of those events' messages; fetching stops past this too (Kafka). */
  GITDEX_INDEXER_IN_FLIGHT_BYTES: positiveInt.default(16 * 1024 * 1024),
  GITDEX_READ_MAX_LINES: positiveInt.default(400),
  GITDEX_READ_MAX_CHARS: positiveInt.default(16000),
  GITDEX_READ_DEFAULT_BYTES: positiveInt.default(65536),
  GITDEX_READ_MAX_BYTES: positiveInt.default(65536),
  /** Megabytes of file contents search_code keeps in the reader's memory between calls, by blob. */
  GITDEX_SEARCH_CACHE_MB: positiveInt.default(256),
  GITDEX_READER_TOKENS: z.string().optional().transform(readerTokens),
  GITDEX_READER_TOKENS_FILE: z.string().optional().transform(readerTokensFile),
  GITDEX_REQUIRE_AUTH: flag.default(false),
  /** Where people and clients reach gitdex (https outside a laptop): the issuer and the protected resource of sign-in with GitHub. */
  GITDEX_PUBLIC_URL: z.string().url().optional(),
  /** Sign-in with GitHub: the client id and secret of the GitHub App (or OAuth app) people authorize; unset: no sign-in. */
  GITDEX_GITHUB_OAUTH_CLIENT_ID: z.string().min(1).optional(),
  GITDEX_GITHUB_OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
  /** 32 random bytes as base64 or hex (openssl rand -hex 32): encrypts signed-in people's GitHub tokens at rest (AES-256-GCM). */
  GITDEX_TOKEN_ENCRYPTION_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || encryptionKeyBytes(v) !== null, '32 random bytes as 64 hex digits or base64 (openssl rand -hex 32)'),
  GITDEX_READER_RATE_LIMIT: z.coerce.number().int().nonnegative().default(600),
  GITDEX_READER_RATE_BURST: positiveInt.optional(),
  /** Seconds after which a signed-in person's readable repositories are resolved from GitHub again (catches a lost permission webhook). */
  GITDEX_PERMISSION_REFRESH_SECONDS: positiveInt.default(900),
  /** The reader's audit log, one JSON line per tool call: off, stdout, or a file path appended to. */
  GITDEX_AUDIT_LOG: z.string().trim().min(1, 'off, stdout, or the path of a file to append to').default('off'),
  /** Callers named in gitdex_reader_caller_calls_total (the rest count as "other"). */
  GITDEX_METRICS_CALLERS: positiveInt.max(1000).default(50),
  /** /metrics on its own port (and no longer on PORT); unset: on PORT. */
  GITDEX_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  GITDEX_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ? csv(v) : [])),
  GITDEX_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ? csv(v).map((host) => host.toLowerCase()) : [])),
  // Re-reads heads and metadata (visibility) every 5 minutes by default: a lost webhook must not leave a private repository public for long.
  GITDEX_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().nonnegative().default(300),
  /** Share of GitHub's hourly rate limit the reconciler may spend: the wait after a pass grows with what it spent (304s are free). */
  GITDEX_RECONCILE_BUDGET_SHARE: z.coerce.number().gt(0).max(1).default(0.1),
  GITDEX_PUBLISHED_SITES: z.string().optional().transform(publishedSites),
  /** Who may have a repository gitdex has never seen looked up on GitHub and queued by asking a tool about it. */
  GITDEX_QUEUE_UNSEEN: z.enum(['anonymous', 'tokens', 'off']).default('tokens'),
  /** Repositories callers without a token may have queued a day, all addresses together (GITDEX_QUEUE_UNSEEN=anonymous). */
  GITDEX_ANONYMOUS_QUEUE_DAILY: z.coerce.number().int().nonnegative().default(100),
  /** A backfill queued by a caller without a token is indexed only if its default branch has at most this many files… */
  GITDEX_ANONYMOUS_BACKFILL_MAX_FILES: positiveInt.default(20_000),
  /** …and at most this many bytes of files (the sizes GitHub's tree gives). */
  GITDEX_ANONYMOUS_BACKFILL_MAX_BYTES: positiveInt.default(200 * 1024 * 1024),
  // Secured engines: Kafka TLS and SASL, Elasticsearch credentials and CA, each secret also as a …_FILE (engine-security.ts).
  ...engineSecurityFields,
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
  value.GITHUB_WEBHOOK_SECRETS.forEach((secret, i) => {
    if (secret.length < MIN_WEBHOOK_SECRET_CHARS)
      problems.push({
        variable: 'GITHUB_WEBHOOK_SECRETS',
        message: `secret ${i + 1} has ${secret.length} characters; use at least ${MIN_WEBHOOK_SECRET_CHARS} random ones (e.g. openssl rand -hex 32)`,
      });
  });
  const tokens = [...value.GITDEX_READER_TOKENS, ...value.GITDEX_READER_TOKENS_FILE];
  for (const [variable, list] of [
    ['GITDEX_READER_TOKENS', value.GITDEX_READER_TOKENS],
    ['GITDEX_READER_TOKENS_FILE', value.GITDEX_READER_TOKENS_FILE],
  ] as const) {
    for (const { name, token } of list) {
      if (token.length < MIN_READER_TOKEN_CHARS)
        problems.push({ variable, message: `${name}: the token has ${token.length} characters; use at least ${MIN_READER_TOKEN_CHARS} random ones (e.g. openssl rand -hex 32)` });
    }
  }
  if (value.GITDEX_READER_TOKENS.length > 0 && value.GITDEX_READER_TOKENS_FILE.length > 0) {
    for (const message of duplicates(tokens)) problems.push({ variable: 'GITDEX_READER_TOKENS_FILE', message: `${message} (with GITDEX_READER_TOKENS)` });
  }
  if (value.GITDEX_REQUIRE_AUTH && tokens.length === 0 && !value.GITDEX_GITHUB_OAUTH_CLIENT_ID) {
    problems.push({
      variable: 'GITDEX_REQUIRE_AUTH',
      message: 'needs reader tokens (GITDEX_READER_TOKENS or GITDEX_READER_TOKENS_FILE) or sign-in with GitHub (GITDEX_GITHUB_OAUTH_CLIENT_ID): without either, every reader request would be refused',
    });
  }
  if (value.GITDEX_GITHUB_OAUTH_CLIENT_ID) {
    for (const variable of ['GITDEX_GITHUB_OAUTH_CLIENT_SECRET', 'GITDEX_TOKEN_ENCRYPTION_KEY', 'GITDEX_PUBLIC_URL'] as const) {
      if (!value[variable]) problems.push({ variable, message: 'sign-in with GitHub (GITDEX_GITHUB_OAUTH_CLIENT_ID is set) needs it: see docs/design/sign-in.md' });
    }
  }
  problems.push(...engineSecurityProblems(value));
  if (problems.length > 0) throw new ConfigError(problems);
  return value;
}
