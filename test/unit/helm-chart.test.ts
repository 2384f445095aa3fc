// The Helm chart deploy/helm/gitdex, rendered by the real Helm (scripts/helm.mjs): its defaults put
// only the webhook route on the public ingress, every variable it sets is one gitdex reads, and
// with every option on the engine secrets reach the processes as files from a Secret.
import { join } from 'node:path';
import { loadFacts, renderChart, validateRendered, type Facts } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
let facts: Facts;

let defaults: any[];

let allOn: any[];

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadFacts takes a synchronous loader: jest's require compiles the TypeScript module
  facts = await loadFacts(root, (rel) => require(join(root, rel)));
  for (const [values, assign] of [
    [[], (objects: unknown[]) => (defaults = objects)],
    [['ci/all-on-values.yaml'], (objects: unknown[]) => (allOn = objects)],
  ] as const) {
    const rendered = renderChart(root, [...values]);
    if (rendered.error) throw new Error(rendered.error);
    assign(rendered.objects);
  }
}, 600_000);

const ofKind = (objects: any[], kind: string): any[] => objects.filter((o) => o.kind === kind);

const named = (objects: any[], kind: string, name: string): any => ofKind(objects, kind).find((o) => o.metadata.name === name);

describe('the Helm chart', () => {
  it('puts only the webhook route on the public ingress by default, and the reader on the internal one', () => {
    const routes = (ingress: { spec: { rules: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }[] } }) =>
      ingress.spec.rules.flatMap((rule) => rule.http.paths.map((p) => `${p.path} -> ${p.backend.service.name}`));
    expect(ofKind(defaults, 'Ingress').map((i) => i.metadata.name)).toEqual(['gitdex-public', 'gitdex-internal']);
    expect(routes(named(defaults, 'Ingress', 'gitdex-public'))).toEqual(['/webhooks/github -> gitdex-webhook']);
    expect(routes(named(defaults, 'Ingress', 'gitdex-internal'))).toEqual(['/mcp -> gitdex-reader', '/v1 -> gitdex-reader']);
    // The reader answers to the internal host (GITDEX_ALLOWED_HOSTS), not to the public one.
    const reader = named(defaults, 'Deployment', 'gitdex-reader').spec.template.spec.containers[0];
    const hosts = reader.env.find((e: { name: string }) => e.name === 'GITDEX_ALLOWED_HOSTS').value.split(',');
    expect(hosts).toEqual(['gitdex-reader', 'localhost', 'gitdex.internal.example.com']);
  });

  it('sets only variables gitdex reads, in every rendering', () => {
    // EnvSchema's variables (libs/contracts/src/config.ts) and the process's own (NODE_OPTIONS).
    const known = facts.envNames;
    for (const objects of [defaults, allOn]) {
      const set = new Set<string>();
      for (const cm of ofKind(objects, 'ConfigMap').filter((c) => !c.metadata.labels.grafana_dashboard)) for (const key of Object.keys(cm.data)) set.add(key);
      for (const o of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
        for (const container of o.spec.template.spec.containers) for (const e of container.env ?? []) set.add(e.name);
      }
      expect([...set].filter((name) => !known.has(name))).toEqual([]);
      expect(set.size).toBeGreaterThan(10);
    }
  });

  it('passes the deployment checks with every option on, with engine secrets as files from a Secret', () => {
    expect(validateRendered(allOn, { facts })).toEqual([]);
    expect(ofKind(allOn, 'ScaledObject')).toHaveLength(1);
    expect(ofKind(allOn, 'HorizontalPodAutoscaler').map((h) => h.metadata.name)).toEqual(['gitdex-reader']);
    const indexer = named(allOn, 'Deployment', 'gitdex-indexer').spec.template.spec;
    const password = indexer.containers[0].env.find((e: { name: string }) => e.name === 'KAFKA_SASL_PASSWORD_FILE');
    expect(password).toEqual({ name: 'KAFKA_SASL_PASSWORD_FILE', value: '/etc/gitdex/engines/kafka-password' });
    expect(indexer.volumes).toContainEqual({ name: 'engine-files', secret: { secretName: 'gitdex-engine-files', defaultMode: 0o440 } });
    const reader = named(allOn, 'Deployment', 'gitdex-reader').spec.template.spec.containers[0];
    expect(reader.env).toContainEqual({ name: 'GITDEX_READER_TOKENS_FILE', value: '/etc/gitdex/reader/tokens.json' });
    expect(ofKind(allOn, 'Job').map((j) => j.spec.template.spec.containers[0].args)).toEqual([['backfill', '--all'], ['reindex']]);
    const alerts = ofKind(allOn, 'PrometheusRule')[0].spec.groups[0].rules.map((r: { alert: string }) => r.alert);
    expect(alerts).toEqual(['GitdexConsumerLagHigh', 'GitdexDeadLetters', 'GitdexFreshnessSlow', 'GitdexReconcilerLate', 'GitdexReconcilerFailing', 'GitdexGitHubRateLimitLow']);
  });
});
