// Types of scripts/validate-deploy (plain CommonJS, so `node scripts/validate-deploy.mjs`
// runs without a build) for the TypeScript tests in test/unit/deploy-*.test.ts.

export interface Facts {
  envNames: Set<string>;
  secretNames: Set<string>;
  roles: string[];
  rolesFrom: string;
  eventsTopic: string;
  deadLetterTopic: string;
  consumerGroup: string;
  defaults: { port: number; partitions: number; indexPrefix: string };
  metricNames: Set<string>;
  lagMetric: string;
  elasticsearchTemplates: Record<string, unknown>;
}

export interface Section {
  name: string;
  /** Empty when the check passed. */
  problems: string[];
  /** What was checked, or skipped and why. */
  notes: string[];
}

export interface DockerContext {
  root: string;
  ignored(relativePath: string): boolean;
  exists(relativePath: string): boolean;
  isDirectory(relativePath: string): boolean;
  list(relativePath: string): string[];
}

/** `loadTs` loads a TypeScript module of the repository by its path from the root. */
export function loadFacts(root: string, loadTs: (relativePath: string) => unknown): Promise<Facts>;
export function validateDeploy(options: { root: string; facts: Facts; kubectl?: boolean; helm?: boolean }): Section[];

/** `helm template` of deploy/helm/gitdex with values files relative to the chart; error when helm failed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rendered objects of any kind, as readManifests
export function renderChart(root: string, valueFiles?: string[], release?: string): { objects: any[]; error?: string };
export function validateRendered(objects: unknown[], options: { facts: Facts; docs?: string }): string[];

export function buildContext(root: string, dockerignoreText: string): DockerContext;
export function workspaceFolders(root: string): string[];
export function validateDockerfile(text: string, context: DockerContext, options?: { workspaces?: string[]; port?: number; entrypoint?: string[] }): string[];
export function validateDockerignore(context: DockerContext, root: string, workspaces: string[]): string[];

export function validateComposeText(text: string, options: { facts: Facts; env?: Record<string, string>; root?: string; docs?: string }): { problems: string[]; required: Map<string, string> };
export function validateComposeDocument(
  document: unknown,
  options: { facts: Facts; env?: Record<string, string>; root?: string; docs?: string },
): { problems: string[]; required: Map<string, string> };

export function validateKubernetesObject(object: unknown): string[];
export function validateKubernetesSet(objects: unknown[], options: { facts: Facts; images?: string[]; docs?: string }): string[];

export function validateKafkaTopics(objects: unknown[], facts: Facts): string[];
export function validateElasticsearchTemplates(dir: string, facts: Facts): string[];
export function writeElasticsearchTemplates(dir: string, facts: Facts): string[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML of any shape: its readers (the deploy tests) assert the shape
export function parseYamlDocuments(text: string): { values: any[]; errors: string[] };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as parseYamlDocuments
export function readManifests(file: string): { objects: any[]; errors: string[] };
export const SAMPLE_ENVIRONMENT: Record<string, string>;
