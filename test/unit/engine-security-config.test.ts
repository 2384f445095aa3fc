import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, elasticsearchSecurity, kafkaSecurity, loadEnv } from '@gitdex/contracts';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

describe('secured-engine settings', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gitdex-engine-security-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const problems = (env: Record<string, string>) => {
    try {
      loadEnv(env);
      return [];
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.problems.map((p) => `${p.variable}: ${p.message}`);
    }
  };

  it("reads secrets and certificates from files into the clients' options", () => {
    const env = loadEnv({
      KAFKA_BROKERS: 'k:9093',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'gitdex',
      KAFKA_SASL_PASSWORD_FILE: file('password', 's3cret\n'),
      KAFKA_SSL_CA_FILE: file('ca.pem', PEM),
      KAFKA_SSL_CERT_FILE: file('cert.pem', PEM),
      KAFKA_SSL_KEY_FILE: file('key.pem', KEY),
      ELASTICSEARCH_API_KEY_FILE: file('api-key', 'aWQ6a2V5\n'),
      ELASTICSEARCH_CA_FILE: file('es-ca.pem', PEM),
    });
    expect(kafkaSecurity(env)).toEqual({ tls: { ca: PEM, cert: PEM, key: KEY, passphrase: undefined }, sasl: { mechanism: 'scram-sha-512', username: 'gitdex', password: 's3cret' } });
    expect(elasticsearchSecurity(env)).toEqual({ auth: { apiKey: 'aWQ6a2V5' }, caPem: PEM });
  });

  it('leaves the clients plaintext and anonymous when nothing is set', () => {
    const env = loadEnv({ KAFKA_BROKERS: 'k:9092' });
    expect(kafkaSecurity(env)).toEqual({});
    expect(elasticsearchSecurity(env)).toEqual({});
    expect(kafkaSecurity(loadEnv({ KAFKA_SSL: 'true' }))).toEqual({ tls: { ca: undefined, cert: undefined, key: undefined, passphrase: undefined } });
    expect(elasticsearchSecurity(loadEnv({ ELASTICSEARCH_USERNAME: 'u', ELASTICSEARCH_PASSWORD_FILE: file('es-password', 'p') }))).toEqual({ auth: { username: 'u', password: 'p' } });
  });

  it('names the setting of each mistake and never quotes a secret', () => {
    const found = problems({
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-1',
      KAFKA_SASL_PASSWORD: 'inline-secret',
      KAFKA_SSL_CA_FILE: file('not-pem', 'hello'),
      KAFKA_SSL_CERT_FILE: file('cert-only.pem', PEM),
      ELASTICSEARCH_API_KEY: 'key-secret',
      ELASTICSEARCH_API_KEY_FILE: join(dir, 'missing'),
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'KAFKA_SASL_MECHANISM: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512',
        expect.stringMatching(/^KAFKA_SSL_CA_FILE: .*not-pem holds no PEM certificate/),
        expect.stringMatching(/^ELASTICSEARCH_API_KEY_FILE: cannot read .*missing: ENOENT/),
      ]),
    );
    expect(found.join('\n')).not.toMatch(/inline-secret|key-secret/);
    expect(problems({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'a', KAFKA_SASL_PASSWORD_FILE: file('p2', 'b') })).toEqual([
      'KAFKA_SASL_PASSWORD_FILE: set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both',
    ]);
    expect(problems({ KAFKA_SASL_MECHANISM: 'plain' })).toEqual([
      'KAFKA_SASL_USERNAME: SASL PLAIN needs a user (or KAFKA_SASL_USERNAME_FILE)',
      'KAFKA_SASL_PASSWORD: SASL PLAIN needs a password (or KAFKA_SASL_PASSWORD_FILE)',
    ]);
    expect(problems({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toEqual(['KAFKA_SASL_MECHANISM: a SASL user and password need a mechanism: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512']);
    expect(problems({ KAFKA_SSL_CERT_FILE: file('c.pem', PEM) })).toEqual(['KAFKA_SSL_KEY_FILE: a client certificate needs both KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE']);
    expect(problems({ ELASTICSEARCH_USERNAME: 'u' })).toEqual(['ELASTICSEARCH_PASSWORD: basic auth needs both ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD']);
    expect(problems({ ELASTICSEARCH_API_KEY: 'k', ELASTICSEARCH_USERNAME: 'u', ELASTICSEARCH_PASSWORD: 'p' })).toEqual(['ELASTICSEARCH_API_KEY: give an API key or a user and password, not both']);
    expect(problems({ KAFKA_SASL_PASSWORD_FILE: file('empty', '\n'), KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^KAFKA_SASL_PASSWORD_FILE: .*empty is empty$/)]),
    );
  });
});
