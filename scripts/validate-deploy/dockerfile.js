'use strict';
// Static checks of the Dockerfile and .dockerignore, since no Docker engine is at hand:
// dockerfile-utils lints the syntax (instructions, flags, durations, JSON forms) and
// dockerfile-ast gives the structure; the rest is checked here against the repository.

const fs = require('node:fs');
const path = require('node:path');
const { DockerfileParser } = require('dockerfile-ast');
const { validate: lint, ValidationSeverity } = require('dockerfile-utils');
const createIgnore = require('@balena/dockerignore');

const ERROR = ValidationSeverity.ERROR;
const LINT_SETTINGS = {
  deprecatedMaintainer: ERROR,
  directiveCasing: ERROR,
  emptyContinuationLine: ERROR,
  instructionCasing: ERROR,
  instructionCmdMultiple: ERROR,
  instructionEntrypointMultiple: ERROR,
  instructionHealthcheckMultiple: ERROR,
  instructionJSONInSingleQuotes: ERROR,
  instructionWorkdirRelative: ERROR,
};

/** Paths that must never reach the build context. */
const MUST_IGNORE = ['node_modules/x', 'libs/contracts/node_modules/x', 'libs/contracts/dist/index.js', '.git/HEAD', '.engines/x', '.gitdex/index.sqlite', 'services/gitdex/dist/main.js'];
/** Build-stage tools that must not be installed in the runtime image. */
const BUILD_TOOLS = /(?:^|\s)(?:g\+\+|gcc|make|build-essential|python3?)(?=$|[\s;&|])/;

/** The context as Docker sees it: a .dockerignore matcher over repository-relative paths. */
function buildContext(root, dockerignoreText) {
  const ig = createIgnore().add(
    dockerignoreText
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  );
  return {
    root,
    ignored: (rel) => ig.ignores(rel.replace(/\/+$/, '')),
    exists: (rel) => fs.existsSync(path.join(root, rel)),
    isDirectory: (rel) => fs.existsSync(path.join(root, rel)) && fs.statSync(path.join(root, rel)).isDirectory(),
    list: (rel) => fs.readdirSync(path.join(root, rel)),
  };
}

/** Workspace folders (package.json "workspaces" globs of the form dir/*) that hold a package.json. */
function workspaceFolders(root) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const folders = [];
  for (const pattern of manifest.workspaces || []) {
    const m = /^([^*]+)\/\*$/.exec(pattern);
    if (!m) {
      folders.push(pattern);
      continue;
    }
    const parent = path.join(root, m[1]);
    if (!fs.existsSync(parent)) continue;
    for (const name of fs.readdirSync(parent).sort()) {
      if (fs.existsSync(path.join(parent, name, 'package.json'))) folders.push(`${m[1]}/${name}`);
    }
  }
  return folders;
}

function filesUnder(root, rel, out = []) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return out;
  if (!fs.statSync(abs).isDirectory()) {
    out.push(rel);
    return out;
  }
  for (const name of fs.readdirSync(abs)) filesUnder(root, `${rel}/${name}`, out);
  return out;
}

function parseJsonForm(text) {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  } catch {
    return null;
  }
}

function globToRegExp(glob) {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')}$`,
  );
}

/**
 * Checks Dockerfile text against the context (see buildContext) and the workspaces.
 * Returns messages, each starting with "line N:" where it has a line.
 */
function validateDockerfile(text, context, options = {}) {
  const problems = [];
  const at = (range, message) => problems.push(range ? `line ${range.start.line + 1}: ${message}` : message);
  const workspaces = options.workspaces || [];
  const expectedEntrypoint = options.entrypoint || ['node', 'services/gitdex/dist/main.js'];
  const port = String(options.port || 8080);

  for (const d of lint(text, LINT_SETTINGS)) at(d.range, d.message);

  const dockerfile = DockerfileParser.parse(text);
  const args = new Map(dockerfile.getInitialARGs().map((a) => [a.getProperty()?.getName(), a.getProperty()?.getValue() ?? '']));
  const resolve = (value) => (value || '').replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name) => (args.has(name) ? args.get(name) : whole));

  const froms = dockerfile.getFROMs();
  if (froms.length < 2) at(null, 'expected a multi-stage build (a build stage and a runtime stage)');
  const stages = [];
  for (const from of froms) {
    const image = resolve(from.getImage());
    const stage = from.getBuildStage();
    const fromStage = stages.find((s) => s.name === image);
    if (!fromStage) {
      if (image.includes('$')) at(from.getRange(), `base image "${from.getImage()}" uses an ARG with no default before the first FROM`);
      else if (!/:[^/]+$/.test(image) && !image.includes('@sha256:')) at(from.getRange(), `base image "${image}" has no tag: pin it`);
      else if (/:latest$/.test(image)) at(from.getRange(), `base image "${image}" is :latest: pin a version`);
      else if (!/^node:24[.-]/.test(image) && !/^node:24$/.test(image)) at(from.getRange(), `base image "${image}" is not Node.js 24 LTS (node:24-bookworm-slim)`);
    }
    stages.push({ name: stage, from, image, base: fromStage ? fromStage.base : image, parent: fromStage || null, instructions: [] });
  }

  // Instructions by stage.
  for (const instruction of dockerfile.getInstructions()) {
    const line = instruction.getRange().start.line;
    const stage = [...stages].reverse().find((s) => s.from.getRange().start.line <= line);
    if (stage && instruction.getKeyword() !== 'FROM') stage.instructions.push(instruction);
  }
  const chain = (stage) => (stage ? [...chain(stage.parent), ...stage.instructions] : []);

  // COPY/ADD: stages named by --from exist and come earlier; sources exist and are in the context.
  const copiesOf = new Map(); // instruction -> repository paths it copies
  stages.forEach((stage, index) => {
    for (const instruction of stage.instructions) {
      const keyword = instruction.getKeyword();
      if (keyword !== 'COPY' && keyword !== 'ADD') continue;
      const values = instruction.getArguments().map((a) => a.getValue());
      if (values.length < 2) continue; // lint reports it
      const sources = values.slice(0, -1);
      const fromFlag = keyword === 'COPY' ? instruction.getFromFlag() : null;
      if (fromFlag) {
        const name = fromFlag.getValue();
        const source = stages.findIndex((s) => s.name === name);
        if (source === -1 && !/^\d+$/.test(name)) at(instruction.getRange(), `COPY --from=${name}: no stage of that name`);
        else if (source >= index) at(instruction.getRange(), `COPY --from=${name}: that stage comes later`);
        continue;
      }
      const copied = [];
      for (const raw of sources) {
        if (/^https?:\/\//.test(raw)) {
          at(instruction.getRange(), `${keyword} ${raw}: remote sources are not reproducible`);
          continue;
        }
        // "./x" and "." lose their dot; a dot file (.npmrc) keeps it.
        const rel =
          path.posix
            .normalize(raw)
            .replace(/^\.(\/|$)/, '')
            .replace(/\/+$/, '') || '.';
        if (rel.startsWith('..')) {
          at(instruction.getRange(), `${keyword} ${raw}: outside the build context`);
          continue;
        }
        let matches = [rel];
        if (/[*?[]/.test(rel)) {
          const dir = path.posix.dirname(rel);
          const re = globToRegExp(path.posix.basename(rel));
          matches = context.isDirectory(dir)
            ? context
                .list(dir)
                .filter((n) => re.test(n))
                .map((n) => (dir === '.' ? n : `${dir}/${n}`))
            : [];
        }
        if (matches.length === 0 || !matches.every((m) => context.exists(m))) {
          at(instruction.getRange(), `${keyword} ${raw}: no such file or folder in the repository`);
          continue;
        }
        for (const m of matches) {
          if (context.ignored(m)) at(instruction.getRange(), `${keyword} ${raw}: excluded by .dockerignore, so not in the build context`);
          else if (context.isDirectory(m) && filesUnder(context.root, m).every((f) => context.ignored(f)))
            at(instruction.getRange(), `${keyword} ${raw}: every file under it is excluded by .dockerignore`);
          copied.push(m);
        }
      }
      copiesOf.set(instruction, copied);
    }
  });

  // Every "npm ci" needs the lockfile and every workspace's package.json copied before it.
  const npmCiRuns = [];
  for (const stage of stages) {
    const before = [];
    for (const instruction of [...chain(stage.parent), ...stage.instructions]) {
      if (copiesOf.has(instruction)) before.push(...copiesOf.get(instruction));
      if (stage.instructions.includes(instruction) && instruction.getKeyword() === 'RUN' && /\bnpm ci\b/.test(instruction.getArgumentsContent() || '')) {
        npmCiRuns.push(instruction);
        const has = (rel) => before.some((c) => c === rel || rel.startsWith(`${c}/`) || c === '.');
        for (const required of ['package.json', 'package-lock.json']) {
          if (!has(required)) at(instruction.getRange(), `npm ci runs before ${required} is copied`);
        }
        for (const folder of workspaces) {
          if (!has(`${folder}/package.json`)) at(instruction.getRange(), `npm ci runs before workspace ${folder} is copied: add "COPY ${folder}/package.json ${folder}/" before it`);
        }
      }
    }
  }
  if (npmCiRuns.length === 0) at(null, 'no stage runs "npm ci"');
  // Install scripts of dependencies never run in the image (docs/security.md "Install scripts").
  for (const instruction of npmCiRuns) {
    if (!/\bnpm ci\b[^&;|]*--ignore-scripts\b/.test(instruction.getArgumentsContent() || ''))
      at(instruction.getRange(), "npm ci without --ignore-scripts: dependencies' install scripts would run in the build");
  }

  // Build and production dependencies.
  const allRuns = stages.flatMap((s) => s.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() || ''));
  if (!allRuns.some((r) => /\bnpm ci\b(?![^&;]*--omit=dev)/.test(r))) at(null, 'no stage runs "npm ci" with the dev dependencies to build');
  if (!allRuns.some((r) => /\bnpm run build\b/.test(r))) at(null, 'no stage runs "npm run build"');
  if (!allRuns.some((r) => /\bnpm (ci|prune)\b[^&;]*--omit=dev/.test(r))) at(null, 'no stage installs production dependencies only ("npm ci --omit=dev" or "npm prune --omit=dev")');

  // The runtime stage.
  const runtime = stages[stages.length - 1];
  if (!runtime) return problems;
  if (runtime.parent) at(runtime.from.getRange(), `the runtime stage builds on stage "${runtime.parent.name}": start it from the base image so build tools stay out`);
  const own = runtime.instructions;
  const last = (keyword) => [...own].reverse().find((i) => i.getKeyword() === keyword);
  for (const r of own.filter((i) => i.getKeyword() === 'RUN')) {
    const content = r.getArgumentsContent() || '';
    if (/\b(apt-get|apk) (install|add)\b/.test(content) && BUILD_TOOLS.test(content)) at(r.getRange(), 'the runtime stage installs build tools: keep them in the build stages');
    if (/\bnpm (ci|install|i)\b/.test(content)) at(r.getRange(), 'the runtime stage runs npm install: copy node_modules from a dependency stage instead');
  }
  const user = last('USER');
  const userName = user ? (user.getArgumentsContent() || '').split(':')[0].trim() : 'root';
  if (!user || userName === 'root' || userName === '0') at(user ? user.getRange() : runtime.from.getRange(), 'the runtime stage runs as root: add USER with a non-root user (e.g. node)');

  const env = new Map();
  for (const e of chain(runtime).filter((i) => i.getKeyword() === 'ENV')) for (const p of e.getProperties()) env.set(p.getName(), p.getValue());
  for (const [name, value] of [
    ['NODE_ENV', 'production'],
    ['HOST', '0.0.0.0'],
    ['PORT', port],
  ]) {
    if (env.get(name) !== value) at(runtime.from.getRange(), `the runtime stage must set ENV ${name}=${value} (has ${env.has(name) ? env.get(name) : 'none'})`);
  }
  const exposed = own.filter((i) => i.getKeyword() === 'EXPOSE').flatMap((i) => i.getArguments().map((a) => a.getValue().split('/')[0]));
  if (!exposed.includes(port)) at(runtime.from.getRange(), `the runtime stage must EXPOSE ${port}`);

  const workdirOf = (instruction) => {
    let dir = '/';
    for (const i of chain(runtime)) {
      if (i.getRange().start.line > instruction.getRange().start.line) break;
      if (i.getKeyword() === 'WORKDIR') dir = path.posix.resolve(dir, i.getArgumentsContent() || '/');
    }
    return dir;
  };
  const destinations = own
    .filter((i) => i.getKeyword() === 'COPY' || i.getKeyword() === 'ADD')
    .map((i) => {
      const values = i.getArguments().map((a) => a.getValue());
      const sources = values.slice(0, -1);
      const dest = path.posix.resolve(workdirOf(i), values[values.length - 1] || '.');
      return { dest, sources, from: i.getKeyword() === 'COPY' ? i.getFromFlag()?.getValue() : undefined };
    });
  const copiedTo = (absolute) =>
    destinations.some(
      (d) => d.dest === absolute || (d.sources.length === 1 && path.posix.join(d.dest, path.posix.basename(d.sources[0])) === absolute) || (d.from && absolute.startsWith(`${d.dest}/`)),
    );

  const healthcheck = last('HEALTHCHECK');
  if (!healthcheck) at(runtime.from.getRange(), 'the runtime stage has no HEALTHCHECK');
  else {
    const content = (healthcheck.getArgumentsContent() || '').trim();
    const command = /^CMD\s+([\s\S]*)$/i.exec(content);
    if (!command) at(healthcheck.getRange(), 'HEALTHCHECK must run a command (CMD ...)');
    else {
      const argv = parseJsonForm(command[1]);
      const words = argv || command[1].split(/\s+/);
      if (!/\/healthz\b/.test(command[1])) at(healthcheck.getRange(), 'HEALTHCHECK must ask /healthz');
      if (/\b(curl|wget)\b/.test(command[1])) at(healthcheck.getRange(), 'HEALTHCHECK uses curl/wget, which the slim image lacks: use node');
      for (const word of words.filter((w) => /^\/.*\.(m?js|cjs)$/.test(w))) {
        if (!copiedTo(word)) at(healthcheck.getRange(), `HEALTHCHECK runs ${word}, which no COPY of the runtime stage puts there`);
      }
    }
  }

  const entrypoint = last('ENTRYPOINT');
  if (!entrypoint) at(runtime.from.getRange(), 'the runtime stage has no ENTRYPOINT');
  else {
    const argv = parseJsonForm(entrypoint.getArgumentsContent() || '');
    if (!argv) at(entrypoint.getRange(), 'ENTRYPOINT must use the exec (JSON) form so signals reach node');
    else if (JSON.stringify(argv) !== JSON.stringify(expectedEntrypoint)) at(entrypoint.getRange(), `ENTRYPOINT must be ${JSON.stringify(expectedEntrypoint)}`);
    else {
      const script = path.posix.resolve(workdirOf(entrypoint), argv[1]);
      if (!copiedTo(script)) at(entrypoint.getRange(), `ENTRYPOINT runs ${script}, which no COPY of the runtime stage provides`);
      const source = argv[1].replace(/\/dist\//, '/src/').replace(/\.js$/, '.ts');
      if (!context.exists(source)) at(entrypoint.getRange(), `ENTRYPOINT runs ${argv[1]}, but ${source} (its source) does not exist`);
    }
  }
  return problems;
}

/** .dockerignore must keep local and built files out, and let every source in. */
function validateDockerignore(context, root, workspaces) {
  const problems = [];
  for (const p of MUST_IGNORE) if (!context.ignored(p)) problems.push(`must exclude ${p.replace(/\/[^/]*$/, '/')} (local or built files)`);
  for (const folder of workspaces) {
    const sources = filesUnder(root, `${folder}/src`);
    const excluded = sources.filter((f) => context.ignored(f));
    if (excluded.length > 0) problems.push(`excludes sources the build needs: ${excluded.slice(0, 3).join(', ')}${excluded.length > 3 ? ', ...' : ''}`);
    if (context.ignored(`${folder}/package.json`) || context.ignored(`${folder}/tsconfig.json`)) problems.push(`excludes ${folder}/package.json or tsconfig.json`);
  }
  return problems;
}

module.exports = { validateDockerfile, validateDockerignore, buildContext, workspaceFolders };
