// The static Dockerfile and .dockerignore checks reject what would break the image build or
// weaken the runtime image. Each case breaks the real Dockerfile in one place.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryFor } from '../../services/gitdex/src/entry';
import { buildContext, validateDockerfile, validateDockerignore, workspaceFolders } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const dockerignore = readFileSync(join(root, '.dockerignore'), 'utf8');
const workspaces = workspaceFolders(root);
const context = buildContext(root, dockerignore);

function check(text: string, ctx = context): string[] {
  return validateDockerfile(text, ctx, { workspaces, port: 8080 });
}

function broken(from: string | RegExp, to: string): string {
  const text = dockerfile.replace(from, to);
  if (text === dockerfile) throw new Error(`the Dockerfile no longer contains ${String(from)}: update this test`);
  return text;
}

describe('Dockerfile checks', () => {
  it('accept the repository Dockerfile', () => {
    expect(workspaces.length).toBeGreaterThan(5);
    expect(check(dockerfile)).toEqual([]);
  });

  it.each<[string, string | RegExp, string, RegExp]>([
    ['a workspace missing before npm ci', 'COPY libs/kafka/package.json libs/kafka/\n', '', /npm ci runs before workspace libs\/kafka is copied/],
    ['a COPY source that does not exist', 'deploy/docker/healthcheck.mjs ./', 'deploy/docker/health-check.mjs ./', /COPY deploy\/docker\/health-check\.mjs: no such file/],
    ['a COPY --from of an unknown stage', '--from=prod-deps', '--from=dependencies', /no stage of that name/],
    ['the runtime running as root', 'USER node', 'USER root', /runs as root/],
    ['no USER at all', /USER node\n/, '', /runs as root/],
    ['no HEALTHCHECK', /HEALTHCHECK .*\n/, '', /no HEALTHCHECK/],
    ['a curl health check', /HEALTHCHECK (.*) CMD .*\n/, 'HEALTHCHECK --interval=15s CMD curl -f http://127.0.0.1:8080/healthz\n', /curl\/wget/],
    ['a shell-form ENTRYPOINT', 'ENTRYPOINT ["node", "services/gitdex/dist/main.js"]', 'ENTRYPOINT node services/gitdex/dist/main.js', /exec \(JSON\) form/],
    ['another entry point', 'services/gitdex/dist/main.js"]', 'services/gitdex/dist/cli.js"]', /ENTRYPOINT must be/],
    ['build tools in the runtime stage', 'RUN mkdir -p /data', 'RUN apt-get update && apt-get install -y g++ && mkdir -p /data', /installs build tools/],
    ['NODE_ENV missing', 'NODE_ENV=production', 'NODE_ENV=development', /ENV NODE_ENV=production/],
    ['the port not exposed', 'EXPOSE 8080', 'EXPOSE 9090', /EXPOSE 8080/],
    ['a :latest base image', 'ARG NODE_IMAGE=node:24-bookworm-slim', 'ARG NODE_IMAGE=node:latest', /:latest/],
    ['another Node.js major', 'ARG NODE_IMAGE=node:24-bookworm-slim', 'ARG NODE_IMAGE=node:22-bookworm-slim', /not Node\.js 24/],
    ['no production-only install', 'RUN npm ci --omit=dev', 'RUN npm ci', /production dependencies only/],
    ['install scripts allowed in the build', 'RUN npm ci --ignore-scripts\n', 'RUN npm ci\n', /npm ci without --ignore-scripts/],
    ['install scripts allowed for production dependencies', 'RUN npm ci --omit=dev --ignore-scripts', 'RUN npm ci --omit=dev', /npm ci without --ignore-scripts/],
    ['an unknown instruction', 'EXPOSE 8080', 'EXPOSE 8080\nEXPOSES 8081', /Unknown instruction/],
    ['an unknown flag', 'HEALTHCHECK --interval=15s', 'HEALTHCHECK --intervall=15s', /Unknown flag/],
    ['a relative WORKDIR', 'WORKDIR /app\n# The embedded', 'WORKDIR app\n# The embedded', /WORKDIR/i],
  ])('reject %s', (_what, from, to, message) => {
    const problems = check(broken(from, to));
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });

  it('reject a COPY of a path .dockerignore excludes', () => {
    const ctx = buildContext(root, `${dockerignore}\nservices/gitdex/package.json\n`);
    expect(check(dockerfile, ctx)).toEqual(expect.arrayContaining([expect.stringMatching(/COPY services\/gitdex\/package\.json: excluded by \.dockerignore/)]));
  });
});

describe('.dockerignore checks', () => {
  it('accept the repository .dockerignore', () => {
    expect(validateDockerignore(context, root, workspaces)).toEqual([]);
  });

  it('reject one that lets node_modules and dist in', () => {
    const ctx = buildContext(root, dockerignore.replace('**/node_modules\n', '').replace('**/dist\n', ''));
    const problems = validateDockerignore(ctx, root, workspaces);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/node_modules/), expect.stringMatching(/dist/)]));
  });

  it('reject one that excludes sources the build needs', () => {
    const ctx = buildContext(root, `${dockerignore}\n**/*.ts\n`);
    expect(validateDockerignore(ctx, root, workspaces)).toEqual(expect.arrayContaining([expect.stringMatching(/excludes sources the build needs/)]));
  });
});

describe('the entry point the Dockerfile runs', () => {
  it('is services/gitdex/dist/main.js, which dispatches on its arguments', () => {
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "services\/gitdex\/dist\/main\.js"\]$/m);
  });

  it.each<[string[], ReturnType<typeof entryFor>]>([
    [[], { run: 'serve' }],
    [['serve'], { run: 'serve' }],
    [['--stdio'], { run: 'stdio' }],
    [['status', '--json'], { run: 'cli', argv: ['status', '--json'] }],
    [['index', 'octo/repo'], { run: 'cli', argv: ['index', 'octo/repo'] }],
    [['backfill', '--all'], { run: 'cli', argv: ['backfill', '--all'] }],
    [['dlq', 'replay'], { run: 'cli', argv: ['dlq', 'replay'] }],
    [['reindex'], { run: 'cli', argv: ['reindex'] }],
    [['reconcile'], { run: 'cli', argv: ['reconcile'] }],
    [['mcp'], { run: 'cli', argv: ['mcp'] }],
    [['serve', '--port'], { run: 'cli', argv: ['serve', '--port'] }],
  ])('runs %j as %j', (argv, entry) => {
    expect(entryFor(argv)).toEqual(entry);
  });
});

describe('the image labels', () => {
  const label = (key: string) => new RegExp(`org\\.opencontainers\\.image\\.${key}="([^"]*)"`).exec(dockerfile)?.[1];

  it('name the version, revision and source from build arguments, and the title and licence', () => {
    expect(label('version')).toBe('${VERSION}');
    expect(label('revision')).toBe('${REVISION}');
    expect(label('source')).toBe('${SOURCE}');
    expect(label('title')).toBe('gitdex');
    expect(label('licenses')).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { license: string }).license);
  });

  it("default the version to package.json's, which every workspace shares", () => {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(/^ARG VERSION=(.*)$/m.exec(dockerfile)?.[1]).toBe(version);
    for (const folder of workspaces) expect([folder, (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { version: string }).version]).toEqual([folder, version]);
  });
});
