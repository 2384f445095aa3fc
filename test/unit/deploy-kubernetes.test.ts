// Kubernetes manifests are checked offline: each object against the strict schema of its
// kind (unknown fields fail), KEDA's ScaledObject against KEDA's CRD schema, and the set
// against itself. Each case breaks an object of the real manifests, in memory.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../services/gitdex/src/cli';
import { entryFor } from '../../services/gitdex/src/entry';
import { loadFacts, readManifests, validateKubernetesObject, validateKubernetesSet, type Facts } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
const dir = join(root, 'deploy', 'kubernetes');
let facts: Facts;

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadFacts takes a synchronous loader: jest's require compiles the TypeScript module
  facts = await loadFacts(root, (rel) => require(join(root, rel)));
}, 60_000);

function manifestFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = join(folder, name);
    if (statSync(full).isDirectory()) return manifestFiles(full);
    return /\.ya?ml$/.test(name) && name !== 'kustomization.yaml' ? [full] : [];
  });
}

/** The objects `kubectl apply -k deploy/kubernetes` applies, as fresh copies. */
function baseSet(): any[] {
  const files = [...manifestFiles(join(dir, 'base')), join(dir, 'indexer-hpa.yaml')];
  return structuredClone(files.flatMap((file) => readManifests(file).objects));
}

function find(set: any[], kind: string, name: string): any {
  const found = set.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name} in deploy/kubernetes: update this test`);
  return found;
}

const container = (deployment: any) => deployment.spec.template.spec.containers[0];
const setProblems = (set: any[]) => validateKubernetesSet(set, { facts, images: ['gitdex'] });

describe('Kubernetes schema checks', () => {
  it('accept every manifest of deploy/kubernetes', () => {
    const files = manifestFiles(dir);
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const { objects, errors } = readManifests(file);
      expect(errors).toEqual([]);
      for (const object of objects) expect({ file, object: `${object.kind}/${object.metadata.name}`, problems: validateKubernetesObject(object) }).toMatchObject({ problems: [] });
    }
  });

  it('reject an unknown field, as kubectl does', () => {
    const deployment = find(baseSet(), 'Deployment', 'gitdex-reader');
    container(deployment).readinessprobe = container(deployment).readinessProbe;
    expect(validateKubernetesObject(deployment)).toEqual([expect.stringMatching(/\/spec\/template\/spec\/containers\/0: unknown field "readinessprobe"/)]);
  });

  it('reject a field of the wrong type', () => {
    const deployment = find(baseSet(), 'Deployment', 'gitdex-webhook');
    container(deployment).ports[0].containerPort = '8080';
    expect(validateKubernetesObject(deployment)).toEqual(expect.arrayContaining([expect.stringMatching(/containerPort: must be integer/)]));
  });

  it('reject a missing required field', () => {
    const deployment = find(baseSet(), 'Deployment', 'gitdex-indexer');
    delete deployment.spec.template.spec.containers;
    expect(validateKubernetesObject(deployment)).toEqual(expect.arrayContaining([expect.stringMatching(/missing required field "containers"/)]));
  });

  it('reject an invalid name and an unknown kind', () => {
    const service = find(baseSet(), 'Service', 'gitdex-reader');
    service.metadata.name = 'Gitdex_Reader';
    expect(validateKubernetesObject(service)).toEqual(expect.arrayContaining([expect.stringMatching(/not a valid name/)]));
    expect(validateKubernetesObject({ apiVersion: 'apps/v1', kind: 'StatefulSett', metadata: { name: 'x' } })).toEqual([expect.stringMatching(/has no schema here/)]);
  });

  it('check a KEDA ScaledObject against the KEDA CRD schema', () => {
    const [scaledObject] = structuredClone(readManifests(join(dir, 'keda', 'indexer-scaledobject.yaml')).objects);
    expect(validateKubernetesObject(scaledObject)).toEqual([]);
    scaledObject.spec.minReplicaCount = 'two';
    delete scaledObject.spec.triggers[0].type;
    expect(validateKubernetesObject(scaledObject)).toEqual(
      expect.arrayContaining([expect.stringMatching(/minReplicaCount must be integer/), expect.stringMatching(/must have required property 'type'|required property type/)]),
    );
  });
});

describe('Kubernetes cross-reference checks', () => {
  it('accept the base set and the KEDA set', () => {
    expect(setProblems(baseSet())).toEqual([]);
    const keda = [...baseSet().filter((o) => o.kind !== 'HorizontalPodAutoscaler' || o.metadata.name !== 'gitdex-indexer'), ...readManifests(join(dir, 'keda', 'indexer-scaledobject.yaml')).objects];
    expect(setProblems(keda)).toEqual([]);
  });

  it('reject a selector that does not match the pod labels, and a Service that selects nothing', () => {
    const set = baseSet();
    find(set, 'Deployment', 'gitdex-webhook').spec.template.metadata.labels['app.kubernetes.io/component'] = 'hook';
    expect(setProblems(set)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Deployment\/gitdex-webhook: spec.selector.matchLabels does not match/),
        expect.stringMatching(/Service\/gitdex-webhook: its selector matches 0 Deployments/),
      ]),
    );
  });

  it('reject a Service targetPort that no container has', () => {
    const set = baseSet();
    find(set, 'Service', 'gitdex-reader').spec.ports[0].targetPort = 'https';
    expect(setProblems(set)).toEqual([expect.stringMatching(/targetPort https is not a port of Deployment\/gitdex-reader/)]);
  });

  it('reject secret values in the manifests', () => {
    const set = baseSet();
    set.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'gitdex-github' }, stringData: { GITHUB_TOKEN: 'ghp_x' } });
    find(set, 'ConfigMap', 'gitdex-config').data.GITHUB_WEBHOOK_SECRETS = 'inline';
    const env = container(find(set, 'Deployment', 'gitdex-webhook')).env;
    env.find((e: any) => e.name === 'GITHUB_WEBHOOK_SECRETS').value = 'inline';
    expect(setProblems(set)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Secret\/gitdex-github: secret values must not live in the manifests/),
        expect.stringMatching(/GITHUB_WEBHOOK_SECRETS is a secret: put it in a Secret/),
        expect.stringMatching(/GITHUB_WEBHOOK_SECRETS has an inline value/),
      ]),
    );
  });

  it('reject a wrong role, an unknown variable and a missing ConfigMap', () => {
    const set = baseSet();
    const reader = container(find(set, 'Deployment', 'gitdex-reader'));
    reader.env.find((e: any) => e.name === 'GITDEX_ROLE').value = 'indexer';
    reader.env.push({ name: 'GITDEX_READER_TOKEN', value: 'x' });
    container(find(set, 'Deployment', 'gitdex-indexer')).envFrom[0].configMapRef.name = 'gitdex-settings';
    expect(setProblems(set)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/GITDEX_ROLE indexer but label app.kubernetes.io\/component=reader/),
        expect.stringMatching(/GITDEX_READER_TOKEN is not a variable gitdex reads/),
        expect.stringMatching(/envFrom ConfigMap gitdex-settings is not defined/),
      ]),
    );
  });

  it('reject probes on the wrong path, missing limits and a weakened security context', () => {
    const set = baseSet();
    const webhook = container(find(set, 'Deployment', 'gitdex-webhook'));
    webhook.readinessProbe.httpGet.path = '/healthz';
    delete webhook.resources.limits.memory;
    webhook.securityContext.readOnlyRootFilesystem = false;
    find(set, 'Deployment', 'gitdex-webhook').spec.template.spec.securityContext.runAsNonRoot = false;
    expect(setProblems(set)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/readinessProbe asks \/healthz, expected \/readyz/),
        expect.stringMatching(/resources.limits.memory is not set/),
        expect.stringMatching(/readOnlyRootFilesystem must be true/),
        expect.stringMatching(/runAsNonRoot must be true/),
      ]),
    );
  });

  it('reject a V8 heap that does not fit the memory limit', () => {
    const set = baseSet();
    container(find(set, 'Deployment', 'gitdex-indexer')).resources.limits.memory = '512Mi';
    expect(setProblems(set)).toEqual([expect.stringMatching(/--max-old-space-size=640 leaves too little of the 512Mi limit/)]);
  });

  it('reject autoscalers that target nothing, exceed the partitions or scale on a metric gitdex does not export', () => {
    const set = baseSet();
    const indexer = find(set, 'HorizontalPodAutoscaler', 'gitdex-indexer');
    indexer.spec.maxReplicas = 24;
    indexer.spec.metrics[0].external.metric.name = 'gitdex_indexer_lag';
    find(set, 'HorizontalPodAutoscaler', 'gitdex-reader').spec.scaleTargetRef.name = 'gitdex-readers';
    expect(setProblems(set)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/maxReplicas 24 is above the 12 partitions/),
        expect.stringMatching(/metric gitdex_indexer_lag is not exported by gitdex/),
        expect.stringMatching(/HorizontalPodAutoscaler\/gitdex-reader: scaleTargetRef Deployment\/gitdex-readers is not a Deployment of this set/),
      ]),
    );
  });

  it('reject two autoscalers on one Deployment, and a KEDA trigger on the wrong topic', () => {
    const [scaledObject] = structuredClone(readManifests(join(dir, 'keda', 'indexer-scaledobject.yaml')).objects);
    scaledObject.spec.triggers[0].metadata.topic = 'gitdex.push';
    expect(setProblems([...baseSet(), scaledObject])).toEqual(
      expect.arrayContaining([expect.stringMatching(/gitdex-indexer already has an autoscaler/), expect.stringMatching(/kafka trigger topic gitdex.push, gitdex consumes gitdex.push.v1/)]),
    );
  });

  it('reject a disruption budget that blocks every drain', () => {
    const set = baseSet();
    find(set, 'PodDisruptionBudget', 'gitdex-reader').spec.minAvailable = 2;
    expect(setProblems(set)).toEqual([expect.stringMatching(/minAvailable 2 with at least 2 replicas blocks every node drain/)]);
  });

  it('require every referenced Secret to be documented', () => {
    const problems = validateKubernetesSet(baseSet(), { facts, images: ['gitdex'], docs: 'only gitdex-webhook and gitdex-github here' });
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/Secret gitdex-reader is referenced but docs\/deploy.md does not say/)]));
    expect(problems.some((p) => p.includes('Secret gitdex-webhook'))).toBe(false);
  });
});

describe('the one-off Jobs (deploy/kubernetes/jobs)', () => {
  const jobs = ['reindex', 'status'].map((name) => ({ name, job: readManifests(join(dir, 'jobs', name, 'job.yaml')).objects[0] }));

  it.each(jobs)('$name passes the strict Job schema and never restarts', ({ job }) => {
    expect(validateKubernetesObject(job)).toEqual([]);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it.each(jobs)('$name runs a gitdex command the image entry point hands to the CLI', ({ name, job }) => {
    const args = job.spec.template.spec.containers[0].args as string[];
    expect(args[0]).toBe(name);
    expect(entryFor(args)).toEqual({ run: 'cli', argv: args });
    expect(buildProgram().commands.map((command) => command.name())).toContain(args[0]);
  });

  it.each(jobs)('$name reads the same configuration as the services', ({ job }) => {
    const container = job.spec.template.spec.containers[0];
    const sources = (container.envFrom as { configMapRef?: { name: string }; secretRef?: { name: string } }[]).map((from) => from.configMapRef?.name ?? from.secretRef?.name);
    expect(sources).toEqual(expect.arrayContaining(['gitdex-config', 'gitdex-engines']));
    expect(container.image).toBe('gitdex');
  });
});
