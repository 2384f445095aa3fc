import { readFileSync } from 'node:fs';
import { z } from 'zod';

// TLS, SASL and credentials for Kafka and Elasticsearch. Each secret may be given as itself or as
// a file (`…_FILE`, as Kubernetes mounts a Secret); certificates and keys are files. Files are read
// once at start, so an unreadable file or one that holds no PEM block is named before anything connects.

type Issues = z.RefinementCtx<string | undefined>;

function readText(path: string, ctx: Issues): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    ctx.issues.push({ code: 'custom', message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, input: '' });
    return undefined;
  }
}

/** A `…_FILE` secret: the file's contents without the line break editors and `echo` leave at the end. */
const secretFile = z
  .string()
  .optional()
  .transform((path, ctx) => {
    if (!path) return undefined;
    const text = readText(path, ctx)?.replace(/\r?\n$/, '');
    if (text === '') ctx.issues.push({ code: 'custom', message: `${path} is empty`, input: '' });
    return text || undefined;
  });

/** A PEM file (certificate or key): its text, checked to hold the block it is named for. */
const pemFile = (what: 'CERTIFICATE' | 'PRIVATE KEY') =>
  z
    .string()
    .optional()
    .transform((path, ctx) => {
      if (!path) return undefined;
      const text = readText(path, ctx);
      if (text === undefined) return undefined;
      if (!new RegExp(`-----BEGIN [A-Z ]*${what}-----`).test(text)) {
        ctx.issues.push({ code: 'custom', message: `${path} holds no PEM ${what.toLowerCase()} (-----BEGIN …${what}-----)`, input: '' });
        return undefined;
      }
      return text;
    });

const secret = z.string().min(1).optional();
const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' }).transform((value) => value === 'true' || value === '1' || value === 'yes');

/** The settings, spread into EnvSchema. `…_FILE` fields hold the file's contents once parsed. */
export const engineSecurityFields = {
  /** TLS to the brokers; on by itself when a KAFKA_SSL_*_FILE is set. */
  KAFKA_SSL: flag.optional(),
  KAFKA_SSL_CA_FILE: pemFile('CERTIFICATE'),
  KAFKA_SSL_CERT_FILE: pemFile('CERTIFICATE'),
  KAFKA_SSL_KEY_FILE: pemFile('PRIVATE KEY'),
  KAFKA_SSL_KEY_PASSWORD: secret,
  KAFKA_SSL_KEY_PASSWORD_FILE: secretFile,
  KAFKA_SASL_MECHANISM: z
    .string()
    .optional()
    .transform((v) => v?.toLowerCase())
    .pipe(z.enum(['plain', 'scram-sha-256', 'scram-sha-512'], { error: 'PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512' }).optional()),
  KAFKA_SASL_USERNAME: secret,
  KAFKA_SASL_USERNAME_FILE: secretFile,
  KAFKA_SASL_PASSWORD: secret,
  KAFKA_SASL_PASSWORD_FILE: secretFile,
  ELASTICSEARCH_API_KEY: secret,
  ELASTICSEARCH_API_KEY_FILE: secretFile,
  ELASTICSEARCH_USERNAME: secret,
  ELASTICSEARCH_USERNAME_FILE: secretFile,
  ELASTICSEARCH_PASSWORD: secret,
  ELASTICSEARCH_PASSWORD_FILE: secretFile,
  ELASTICSEARCH_CA_FILE: pemFile('CERTIFICATE'),
};

type SecurityEnv = z.output<z.ZodObject<typeof engineSecurityFields>>;
type Problem = { variable: string; message: string };

const PAIRS = ['KAFKA_SSL_KEY_PASSWORD', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'ELASTICSEARCH_API_KEY', 'ELASTICSEARCH_USERNAME', 'ELASTICSEARCH_PASSWORD'] as const;

const either = (env: SecurityEnv, name: (typeof PAIRS)[number]): string | undefined => env[name] ?? env[`${name}_FILE`];

/** Settings that do not go together, or one that needs another; each names the setting to change. */
export function engineSecurityProblems(env: SecurityEnv): Problem[] {
  const problems: Problem[] = [];
  for (const name of PAIRS) {
    if (env[name] !== undefined && env[`${name}_FILE`] !== undefined) problems.push({ variable: `${name}_FILE`, message: `set ${name} or ${name}_FILE, not both` });
  }
  if ((env.KAFKA_SSL_CERT_FILE === undefined) !== (env.KAFKA_SSL_KEY_FILE === undefined)) {
    problems.push({
      variable: env.KAFKA_SSL_CERT_FILE === undefined ? 'KAFKA_SSL_CERT_FILE' : 'KAFKA_SSL_KEY_FILE',
      message: 'a client certificate needs both KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE',
    });
  }
  if (env.KAFKA_SSL === false && (env.KAFKA_SSL_CA_FILE ?? env.KAFKA_SSL_CERT_FILE) !== undefined) {
    problems.push({ variable: 'KAFKA_SSL', message: 'is false, but KAFKA_SSL_* files are set: remove them or set KAFKA_SSL=true' });
  }
  const login = either(env, 'KAFKA_SASL_USERNAME') !== undefined || either(env, 'KAFKA_SASL_PASSWORD') !== undefined;
  if (env.KAFKA_SASL_MECHANISM === undefined && login) problems.push({ variable: 'KAFKA_SASL_MECHANISM', message: 'a SASL user and password need a mechanism: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512' });
  if (env.KAFKA_SASL_MECHANISM !== undefined) {
    if (either(env, 'KAFKA_SASL_USERNAME') === undefined)
      problems.push({ variable: 'KAFKA_SASL_USERNAME', message: `SASL ${env.KAFKA_SASL_MECHANISM.toUpperCase()} needs a user (or KAFKA_SASL_USERNAME_FILE)` });
    if (either(env, 'KAFKA_SASL_PASSWORD') === undefined)
      problems.push({ variable: 'KAFKA_SASL_PASSWORD', message: `SASL ${env.KAFKA_SASL_MECHANISM.toUpperCase()} needs a password (or KAFKA_SASL_PASSWORD_FILE)` });
  }
  const user = either(env, 'ELASTICSEARCH_USERNAME') !== undefined;
  const password = either(env, 'ELASTICSEARCH_PASSWORD') !== undefined;
  if (user !== password) problems.push({ variable: user ? 'ELASTICSEARCH_PASSWORD' : 'ELASTICSEARCH_USERNAME', message: 'basic auth needs both ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD' });
  if (either(env, 'ELASTICSEARCH_API_KEY') !== undefined && user) problems.push({ variable: 'ELASTICSEARCH_API_KEY', message: 'give an API key or a user and password, not both' });
  return problems;
}

/** The Kafka client's TLS and SASL (the shapes of @gitdex/kafka's KafkaOptions). */
export interface KafkaSecurity {
  tls?: { ca?: string | undefined; cert?: string | undefined; key?: string | undefined; passphrase?: string | undefined };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

export function kafkaSecurity(env: SecurityEnv): KafkaSecurity {
  const tls = env.KAFKA_SSL ?? (env.KAFKA_SSL_CA_FILE ?? env.KAFKA_SSL_CERT_FILE) !== undefined;
  const username = either(env, 'KAFKA_SASL_USERNAME');
  const password = either(env, 'KAFKA_SASL_PASSWORD');
  return {
    ...(tls ? { tls: { ca: env.KAFKA_SSL_CA_FILE, cert: env.KAFKA_SSL_CERT_FILE, key: env.KAFKA_SSL_KEY_FILE, passphrase: either(env, 'KAFKA_SSL_KEY_PASSWORD') } } : {}),
    ...(env.KAFKA_SASL_MECHANISM && username !== undefined && password !== undefined ? { sasl: { mechanism: env.KAFKA_SASL_MECHANISM, username, password } } : {}),
  };
}

/** Elasticsearch's credentials and CA (the shapes of @gitdex/elasticsearch's options). */
export interface ElasticsearchSecurity {
  auth?: { apiKey: string } | { username: string; password: string };
  caPem?: string;
}

export function elasticsearchSecurity(env: SecurityEnv): ElasticsearchSecurity {
  const apiKey = either(env, 'ELASTICSEARCH_API_KEY');
  const username = either(env, 'ELASTICSEARCH_USERNAME');
  const password = either(env, 'ELASTICSEARCH_PASSWORD');
  return {
    ...(apiKey !== undefined ? { auth: { apiKey } } : username !== undefined && password !== undefined ? { auth: { username, password } } : {}),
    ...(env.ELASTICSEARCH_CA_FILE !== undefined ? { caPem: env.ELASTICSEARCH_CA_FILE } : {}),
  };
}

/** Which setting a refusal names: the login's password file or value, the CA file, the certificate. */
export function kafkaRefusalSetting(env: SecurityEnv, part: 'sasl' | 'ca' | 'client-certificate'): string {
  if (part === 'sasl') return env.KAFKA_SASL_PASSWORD_FILE !== undefined ? 'KAFKA_SASL_PASSWORD_FILE' : 'KAFKA_SASL_PASSWORD';
  if (part === 'ca') return 'KAFKA_SSL_CA_FILE';
  return 'KAFKA_SSL_CERT_FILE';
}

export function elasticsearchRefusalSetting(env: SecurityEnv, part: 'credentials' | 'ca'): string {
  if (part === 'ca') return 'ELASTICSEARCH_CA_FILE';
  if (either(env, 'ELASTICSEARCH_API_KEY') !== undefined) return env.ELASTICSEARCH_API_KEY_FILE !== undefined ? 'ELASTICSEARCH_API_KEY_FILE' : 'ELASTICSEARCH_API_KEY';
  return env.ELASTICSEARCH_PASSWORD_FILE !== undefined ? 'ELASTICSEARCH_PASSWORD_FILE' : 'ELASTICSEARCH_PASSWORD';
}

/** Whether anything secured is configured: only then is the login checked at start. */
export function engineSecurityConfigured(env: SecurityEnv): { kafka: boolean; elasticsearch: boolean } {
  const k = kafkaSecurity(env);
  const e = elasticsearchSecurity(env);
  return { kafka: k.tls !== undefined || k.sasl !== undefined, elasticsearch: e.auth !== undefined || e.caPem !== undefined };
}
