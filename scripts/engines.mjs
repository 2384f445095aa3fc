#!/usr/bin/env node
// Real engines for local runs and the integration tests: Apache Kafka (KRaft, one
// combined broker+controller) and Elasticsearch (single node), run as background
// JVM processes on 127.0.0.1, with no Docker. See docs/engines.md.
//
//   node scripts/engines.mjs up                 start both (or reuse running ones); prints
//                                               KAFKA_BROKERS=... and ELASTICSEARCH_URL=...
//   node scripts/engines.mjs down               stop both, leave no process behind
//   node scripts/engines.mjs status             one line per engine; exit 0 when both are healthy
//   node scripts/engines.mjs stop  <engine>     stop one engine, keep its data (--kill: SIGKILL, a crash)
//   node scripts/engines.mjs start <engine>     start one engine again on the same port, with its data
//   node scripts/engines.mjs restart <engine>   stop + start (--kill for a crash-restart)
//   node scripts/engines.mjs pause|resume <engine>  SIGSTOP/SIGCONT: the port stays open but nothing answers
//   node scripts/engines.mjs fetch              only download/unpack the artifacts into the cache
//
// <engine> is `kafka` or `elasticsearch` (alias `es`), or `all`.
//
// Also a library (plain ESM, node builtins only; it survives jest's swc transform to
// CommonJS too): up(), down(), status(), endpoints(), stopEngine(), startEngine(),
// restartEngine(), pauseEngine(), resumeEngine(), fetchArtifacts(), and for isolated sets of
// engines privateOptions(), destroy(), sweepPrivate(). Each takes options last
// ({ home, cache, ports, log }); without them it works on the shared set in ENGINES_HOME.
//
// Artifacts come from Maven Central through the ordinary `mvn` client
// (scripts/engines/engines-pom.xml). Everything else lives under ENGINES_HOME
// (default: <repo>/.engines): cache/ (artifacts; ENGINES_CACHE moves it), kafka/ and
// elasticsearch/ (config, data, logs, state), private/ (private sets of running tests).

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------
// Versions and fixed settings
// ---------------------------------------------------------------------------------------

/** Apache Kafka broker (org.apache.kafka:kafka_2.13). Verified with kafkajs 2.2.4, see docs/engines.md. */
export const KAFKA_VERSION = process.env.ENGINES_KAFKA_VERSION || '4.4.0';
/** Elasticsearch integ-test-zip distribution (org.elasticsearch.distribution.integ-test-zip:elasticsearch:zip). */
export const ELASTICSEARCH_VERSION = process.env.ENGINES_ELASTICSEARCH_VERSION || '9.5.4';

const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const ES_ARTIFACT = (version) => `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`;
const ENGINE_USER = process.env.ENGINES_USER || 'gitdex-engines';

const DEFAULT_PORTS = {
  kafka: Number(process.env.ENGINES_KAFKA_PORT || 19092),
  kafkaController: Number(process.env.ENGINES_KAFKA_CONTROLLER_PORT || 19093),
  elasticsearch: Number(process.env.ENGINES_ELASTICSEARCH_PORT || 19200),
  elasticsearchTransport: Number(process.env.ENGINES_ELASTICSEARCH_TRANSPORT_PORT || 19300),
};

const START_TIMEOUT_MS = {
  kafka: Number(process.env.ENGINES_KAFKA_START_TIMEOUT_MS || 90_000),
  elasticsearch: Number(process.env.ENGINES_ELASTICSEARCH_START_TIMEOUT_MS || 180_000),
};
const STOP_TIMEOUT_MS = 30_000;

export const ENGINES = ['kafka', 'elasticsearch'];

// `import.meta.url` is rewritten to a file URL of __filename when jest compiles this file to CommonJS.
const SELF = fileURLToPath(import.meta.url);
const SCRIPTS_DIR = path.dirname(SELF);
const REPO_ROOT = path.resolve(SCRIPTS_DIR, '..');
const POM = path.join(SCRIPTS_DIR, 'engines', 'engines-pom.xml');

// ---------------------------------------------------------------------------------------
// Paths and small helpers
// ---------------------------------------------------------------------------------------

/** The folder everything is kept in by default (artifacts, data, logs, state): ENGINES_HOME or <repo>/.engines. */
export function enginesHome() {
  return path.resolve(process.env.ENGINES_HOME || path.join(REPO_ROOT, '.engines'));
}

/**
 * Which set of engines a call is about. The default set lives in enginesHome() on the fixed
 * ports; a private set (privateOptions()) has its own home, any free ports, and shares the cache.
 * @typedef {{ home?: string, cache?: string, ports?: Partial<typeof DEFAULT_PORTS>, log?: (line: string) => void }} EngineOptions
 */
function makeContext(opts = {}) {
  const home = path.resolve(opts.home || enginesHome());
  const cache = path.resolve(opts.cache || process.env.ENGINES_CACHE || path.join(home, 'cache'));
  return {
    home,
    cache,
    log: opts.log || defaultLog,
    ports: { ...DEFAULT_PORTS, ...(opts.ports || {}) },
    // Identifies this home's processes on their command line (-Dgitdex.engines.id=...).
    id: crypto.createHash('sha1').update(home).digest('hex').slice(0, 12),
  };
}

/** Options for a private set of engines (own home under <ENGINES_HOME>/private, any free ports, shared cache). */
export function privateOptions(label = 'private') {
  const base = enginesHome();
  const safe = String(label).replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40);
  const home = path.join(base, 'private', `${safe}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  return {
    home,
    cache: process.env.ENGINES_CACHE || path.join(base, 'cache'),
    ports: { kafka: 0, kafkaController: 0, elasticsearch: 0, elasticsearchTransport: 0 },
  };
}

function paths(ctx) {
  const { home, cache } = ctx;
  const kafkaDir = path.join(home, 'kafka');
  const esDir = path.join(home, 'elasticsearch');
  return {
    home,
    cache,
    lock: path.join(home, 'engines.lock'),
    kafka: {
      dir: kafkaDir,
      libs: path.join(cache, `kafka-${KAFKA_VERSION}`, 'libs'),
      config: path.join(kafkaDir, 'server.properties'),
      log4j: path.join(kafkaDir, 'log4j2.properties'),
      data: path.join(kafkaDir, 'data'),
      logs: path.join(kafkaDir, 'logs'),
      out: path.join(kafkaDir, 'logs', 'kafka.out'),
      state: path.join(kafkaDir, 'state.json'),
    },
    elasticsearch: {
      dir: esDir,
      install: path.join(cache, `elasticsearch-${ELASTICSEARCH_VERSION}`),
      downloads: path.join(cache, 'downloads'),
      config: path.join(esDir, 'config'),
      data: path.join(esDir, 'data'),
      logs: path.join(esDir, 'logs'),
      tmp: path.join(esDir, 'tmp'),
      out: path.join(esDir, 'logs', 'elasticsearch.out'),
      state: path.join(esDir, 'state.json'),
    },
  };
}

const defaultLog = (line) => process.stderr.write(`[engines] ${line}\n`);
/** The log of the call in progress (each API call may bring its own, e.g. a private set's label). */
const logStore = new AsyncLocalStorage();
function log(line) {
  (logStore.getStore() || defaultLog)(line);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function canonicalName(name) {
  const n = String(name || '').toLowerCase();
  if (n === 'kafka') return 'kafka';
  if (n === 'elasticsearch' || n === 'es') return 'elasticsearch';
  throw new Error(`unknown engine "${name}" (expected kafka or elasticsearch)`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function tail(file, lines = 40) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (res.error) throw new Error(`${cmd} could not run: ${res.error.message}`);
  return res;
}

function runChecked(cmd, args, options = {}) {
  const res = run(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}):\n${res.stdout || ''}${res.stderr || ''}`);
  }
  return res;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

// ---------------------------------------------------------------------------------------
// Lock: one engines command at a time per ENGINES_HOME (jest setup + a manual `up`, say)
// ---------------------------------------------------------------------------------------

function pidAlive(pid) {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** In-process queues, one per lock file (the lock file itself serialises processes). */
const inProcess = new Map();

async function serialised(lock, fn) {
  const previous = inProcess.get(lock) || Promise.resolve();
  let release;
  const mine = new Promise((resolve) => (release = resolve));
  const chained = previous.then(() => mine);
  inProcess.set(lock, chained);
  await previous;
  try {
    return await withFileLock(lock, fn);
  } finally {
    release();
    if (inProcess.get(lock) === chained) inProcess.delete(lock);
  }
}

/** One engines command at a time per home (jest's setup and a manual `up`, say), logging to ctx.log. */
function withLock(ctx, fn) {
  return logStore.run(ctx.log, () => serialised(paths(ctx).lock, fn));
}

/** A lock file holding the owner's pid; a lock whose owner is gone is taken over. */
async function withFileLock(lock, fn) {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = 0;
      let age = 0;
      try {
        owner = Number(fs.readFileSync(lock, 'utf8').trim() || 0);
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      const stale = owner ? !pidAlive(owner) || owner === process.pid : age > 5_000;
      if (stale) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`engines lock ${lock} held by pid ${owner} for too long`);
      if (!told) log(`waiting for another engines command (pid ${owner}) to finish`);
      told = true;
      await sleep(300);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Processes: found through /proc by their -Dgitdex.engine=<name> -Dgitdex.engines.id=<id> flags
// ---------------------------------------------------------------------------------------

function procStat(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]), pgid: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

function listProcesses({ zombies = false } = {}) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = procStat(pid);
    if (!stat || (stat.state === 'Z' && !zombies)) continue;
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    out.push({ pid, ...stat, cmdline });
  }
  return out;
}

/** The JVMs of one engine of this home that are alive now. */
function engineProcesses(ctx, name) {
  const marks = [`-Dgitdex.engine=${name}`, `-Dgitdex.engines.id=${ctx.id}`];
  return listProcesses().filter((p) => marks.every((m) => p.cmdline.includes(m)));
}

function groupMembers(pgid, opts) {
  return listProcesses(opts).filter((p) => p.pgid === pgid);
}

/** Exited JVMs linger as zombies until their parent (often init) reaps them; give it a moment. */
async function waitReaped(groups, ms = 3000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && groups.some((g) => groupMembers(g, { zombies: true }).length > 0)) await sleep(100);
}

/** Process groups that belong to an engine: those of its JVMs, and the one recorded at start. */
function engineGroups(ctx, name) {
  const groups = new Set(engineProcesses(ctx, name).map((p) => p.pgid));
  // The group recorded at start also holds the launcher (e.g. Elasticsearch's CLI JVM) and
  // outlives a JVM that has not started yet; it is ours only while a member names our files.
  const state = readJson(paths(ctx)[name].state);
  const ours = name === 'kafka' ? paths(ctx).kafka.libs : paths(ctx).elasticsearch.install;
  if (state?.pgid && groupMembers(state.pgid).some((p) => p.cmdline.includes(ours))) groups.add(state.pgid);
  return [...groups].filter((g) => g > 1 && g !== process.pid);
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err;
  }
}

async function killGroups(name, groups, { force = false } = {}) {
  if (groups.length === 0) return;
  for (const g of groups) signalGroup(g, force ? 'SIGKILL' : 'SIGTERM');
  // A paused (SIGSTOP) engine cannot act on SIGTERM until it is continued.
  if (!force) for (const g of groups) signalGroup(g, 'SIGCONT');
  const deadline = Date.now() + (force ? 10_000 : STOP_TIMEOUT_MS);
  while (Date.now() < deadline) {
    if (groups.every((g) => groupMembers(g).length === 0)) return waitReaped(groups);
    await sleep(200);
  }
  log(`${name} did not stop within ${STOP_TIMEOUT_MS / 1000}s; sending SIGKILL`);
  for (const g of groups) signalGroup(g, 'SIGKILL');
  const killDeadline = Date.now() + 10_000;
  while (Date.now() < killDeadline) {
    if (groups.every((g) => groupMembers(g).length === 0)) return waitReaped(groups);
    await sleep(100);
  }
  throw new Error(`${name}: processes of group(s) ${groups.join(', ')} survived SIGKILL`);
}

// ---------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------

function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function ephemeralPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function choosePort(preferred, taken = []) {
  if (preferred > 0 && !taken.includes(preferred) && (await portFree(preferred))) return preferred;
  for (;;) {
    const port = await ephemeralPort();
    if (!taken.includes(port)) {
      if (preferred > 0) log(`port ${preferred} is busy; using ${port}`);
      return port;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Health checks
// ---------------------------------------------------------------------------------------

/** One Kafka request over a fresh connection; resolves to the response body (after the correlation id). */
function kafkaRequest(port, apiKey, apiVersion, body, timeoutMs = 3000) {
  return new Promise((resolve, reject) => {
    const clientId = Buffer.from('gitdex-engines');
    const header = Buffer.alloc(10);
    header.writeInt16BE(apiKey, 0);
    header.writeInt16BE(apiVersion, 2);
    header.writeInt32BE(1, 4);
    header.writeInt16BE(clientId.length, 8);
    const payload = Buffer.concat([header, clientId, body]);
    const size = Buffer.alloc(4);
    size.writeInt32BE(payload.length, 0);

    const socket = net.connect({ host: '127.0.0.1', port });
    let chunks = Buffer.alloc(0);
    const done = (err, value) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(new Error('timeout')));
    socket.once('error', (err) => done(err));
    socket.once('connect', () => socket.write(Buffer.concat([size, payload])));
    socket.on('data', (chunk) => {
      chunks = Buffer.concat([chunks, chunk]);
      if (chunks.length >= 4 && chunks.length >= 4 + chunks.readInt32BE(0)) {
        done(null, chunks.subarray(8, 4 + chunks.readInt32BE(0)));
      }
    });
    socket.once('close', () => done(new Error('connection closed')));
  });
}

/**
 * A real round trip with the broker: ApiVersions, then Metadata. Resolves to the brokers the
 * cluster reports and its controller; rejects while the broker is not serving yet.
 */
export async function kafkaMetadata(port, timeoutMs = 3000) {
  const versions = await kafkaRequest(port, 18, 0, Buffer.alloc(0), timeoutMs);
  const errorCode = versions.readInt16BE(0);
  if (errorCode !== 0) throw new Error(`ApiVersions error ${errorCode}`);
  const count = versions.readInt32BE(2);
  let metadataRange;
  for (let i = 0; i < count; i++) {
    const off = 6 + i * 6;
    if (versions.readInt16BE(off) === 3) metadataRange = [versions.readInt16BE(off + 2), versions.readInt16BE(off + 4)];
  }
  if (!metadataRange || metadataRange[0] > 4 || metadataRange[1] < 4) {
    throw new Error(`broker does not offer Metadata v4 (offers ${metadataRange})`);
  }
  // Metadata v4 request: topics = null (int32 -1), allow_auto_topic_creation = false.
  const body = Buffer.from([0xff, 0xff, 0xff, 0xff, 0]);
  const res = await kafkaRequest(port, 3, 4, body, timeoutMs);
  let off = 4; // throttle_time_ms
  const brokers = [];
  const brokerCount = res.readInt32BE(off);
  off += 4;
  for (let i = 0; i < brokerCount; i++) {
    const nodeId = res.readInt32BE(off);
    off += 4;
    const hostLen = res.readInt16BE(off);
    off += 2;
    const host = res.toString('utf8', off, off + hostLen);
    off += hostLen;
    const brokerPort = res.readInt32BE(off);
    off += 4;
    const rackLen = res.readInt16BE(off);
    off += 2 + Math.max(rackLen, 0);
    brokers.push({ nodeId, host, port: brokerPort });
  }
  const clusterIdLen = res.readInt16BE(off);
  off += 2;
  const clusterId = clusterIdLen >= 0 ? res.toString('utf8', off, off + clusterIdLen) : null;
  off += Math.max(clusterIdLen, 0);
  const controllerId = res.readInt32BE(off);
  return { brokers, clusterId, controllerId };
}

async function kafkaHealthy(port) {
  try {
    const meta = await kafkaMetadata(port);
    return meta.brokers.length > 0 && meta.controllerId >= 0;
  } catch {
    return false;
  }
}

function httpGetJson(url, timeoutMs = 3000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode, body: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode, body: text });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function elasticsearchHealthy(port) {
  try {
    const res = await httpGetJson(`http://127.0.0.1:${port}/_cluster/health?wait_for_status=yellow&timeout=2s`, 4000);
    return res.status === 200 && (res.body.status === 'yellow' || res.body.status === 'green');
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// Java
// ---------------------------------------------------------------------------------------

function javaMajorOfHome(home) {
  try {
    const release = fs.readFileSync(path.join(home, 'release'), 'utf8');
    const m = release.match(/^JAVA_VERSION="(\d+)(?:\.(\d+))?/m);
    if (!m) return 0;
    return m[1] === '1' ? Number(m[2]) : Number(m[1]);
  } catch {
    return 0;
  }
}

function javaMajorOfBinary(bin) {
  const res = spawnSync(bin, ['-version'], { encoding: 'utf8' });
  if (res.error) return 0;
  const m = `${res.stderr}${res.stdout}`.match(/version "(\d+)(?:\.(\d+))?/);
  if (!m) return 0;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

/** JDK homes on this machine, newest first (/usr/lib/jvm/*, /opt/java/*, ...). */
function discoverJdks() {
  const roots = ['/usr/lib/jvm', '/opt/java', '/opt/jdk', '/usr/local/lib/jvm', '/usr/java'];
  const homes = [];
  for (const root of roots) {
    let entries = [];
    try {
      entries = fs.readdirSync(root);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const home = path.join(root, entry);
      try {
        if (fs.lstatSync(home).isSymbolicLink()) continue;
      } catch {
        continue;
      }
      if (fs.existsSync(path.join(home, 'bin', 'java'))) homes.push({ home, major: javaMajorOfHome(home) });
    }
  }
  // Temurin first among equals, then the newest.
  return homes.sort((a, b) => b.major - a.major || Number(/temurin/.test(b.home)) - Number(/temurin/.test(a.home)));
}

/** The JDK Elasticsearch runs on: ES_JAVA_HOME, else the newest JDK >= 21 found. */
function elasticsearchJavaHome() {
  if (process.env.ES_JAVA_HOME) return process.env.ES_JAVA_HOME;
  if (process.env.JAVA_HOME && javaMajorOfHome(process.env.JAVA_HOME) >= 21) return process.env.JAVA_HOME;
  const jdk = discoverJdks().find((j) => j.major >= 21);
  if (!jdk) {
    throw new Error(
      `Elasticsearch ${ELASTICSEARCH_VERSION} needs Java 21 or newer and none was found under /usr/lib/jvm ` +
        '(set ES_JAVA_HOME to a JDK 21+ home)',
    );
  }
  return jdk.home;
}

/** The java binary Kafka runs on: KAFKA_JAVA_HOME, JAVA_HOME or `java` on PATH if >= 17, else a JDK found. */
function kafkaJava() {
  for (const home of [process.env.KAFKA_JAVA_HOME, process.env.JAVA_HOME]) {
    if (home && fs.existsSync(path.join(home, 'bin', 'java')) && (javaMajorOfHome(home) || 17) >= 17) {
      return path.join(home, 'bin', 'java');
    }
  }
  if (javaMajorOfBinary('java') >= 17) return 'java';
  const jdk = discoverJdks().find((j) => j.major >= 17);
  if (!jdk) throw new Error(`Kafka ${KAFKA_VERSION} needs Java 17 or newer and none was found`);
  return path.join(jdk.home, 'bin', 'java');
}

// ---------------------------------------------------------------------------------------
// Artifacts (Maven Central through `mvn`)
// ---------------------------------------------------------------------------------------

function mvn(args) {
  const which = run('sh', ['-c', 'command -v mvn'], { stdio: ['ignore', 'pipe', 'ignore'] });
  if (which.status !== 0) throw new Error('`mvn` (Apache Maven) is needed to fetch the engines: apt-get install maven');
  const res = run('mvn', ['-B', '-q', '-Dstyle.color=never', '-f', POM, ...args], {
    cwd: path.dirname(POM),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (res.status !== 0) {
    throw new Error(`mvn ${args.join(' ')} failed (exit ${res.status}):\n${tailText(`${res.stdout}${res.stderr}`)}`);
  }
}

function tailText(text, lines = 30) {
  return text.split('\n').slice(-lines).join('\n');
}

/** Fills the cache once; several homes (private sets, other checkouts) may share one cache. */
async function withCacheLock(ctx, marker, fn) {
  if (fs.existsSync(marker)) return;
  await serialised(path.join(ctx.cache, '.fetch.lock'), async () => {
    if (!fs.existsSync(marker)) await fn();
  });
}

async function fetchKafka(ctx) {
  const p = paths(ctx).kafka;
  const marker = path.join(path.dirname(p.libs), '.complete');
  await withCacheLock(ctx, marker, () => downloadKafka(p, marker));
}

async function downloadKafka(p, marker) {
  const started = Date.now();
  log(`fetching Kafka ${KAFKA_VERSION} (org.apache.kafka:kafka_2.13 and its runtime dependencies) with mvn`);
  const tmp = `${p.libs}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(p.libs, { recursive: true, force: true });
  mvn([`${DEPENDENCY_PLUGIN}:copy-dependencies`, `-Dkafka.version=${KAFKA_VERSION}`, `-DoutputDirectory=${tmp}`]);
  const jars = fs.readdirSync(tmp).filter((f) => f.endsWith('.jar'));
  if (!jars.some((j) => j.startsWith(`kafka_2.13-${KAFKA_VERSION}`))) {
    throw new Error(`mvn did not bring kafka_2.13-${KAFKA_VERSION}.jar into ${tmp}`);
  }
  fs.renameSync(tmp, p.libs);
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`Kafka ${KAFKA_VERSION}: ${jars.length} jars in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

async function fetchElasticsearch(ctx) {
  const p = paths(ctx).elasticsearch;
  const marker = path.join(p.install, '.complete');
  await withCacheLock(ctx, marker, () => downloadElasticsearch(p, marker));
}

async function downloadElasticsearch(p, marker) {
  const started = Date.now();
  log(`fetching Elasticsearch ${ELASTICSEARCH_VERSION} (${ES_ARTIFACT(ELASTICSEARCH_VERSION)}) with mvn`);
  fs.mkdirSync(p.downloads, { recursive: true });
  const zip = path.join(p.downloads, `elasticsearch-${ELASTICSEARCH_VERSION}.zip`);
  if (!fs.existsSync(zip)) {
    mvn([`${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${ES_ARTIFACT(ELASTICSEARCH_VERSION)}`, `-DoutputDirectory=${p.downloads}`]);
  }
  if (!fs.existsSync(zip)) throw new Error(`mvn did not bring ${path.basename(zip)} into ${p.downloads}`);

  const tmp = `${p.install}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(p.install, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const hasUnzip = run('sh', ['-c', 'command -v unzip'], { stdio: ['ignore', 'pipe', 'ignore'] }).status === 0;
  if (hasUnzip) {
    runChecked('unzip', ['-q', zip, '-d', tmp]);
  } else {
    // The JDK's jar tool unpacks too, but drops the executable bits.
    runChecked(path.join(elasticsearchJavaHome(), 'bin', 'jar'), ['xf', zip], { cwd: tmp });
  }
  const top = fs.readdirSync(tmp).find((d) => d.startsWith('elasticsearch-'));
  if (!top) throw new Error(`unexpected layout in ${zip}`);
  fs.renameSync(path.join(tmp, top), p.install);
  fs.rmSync(tmp, { recursive: true, force: true });
  if (!hasUnzip) runChecked('chmod', ['-R', 'a+x', path.join(p.install, 'bin')]);
  fs.rmSync(zip, { force: true }); // the unpacked tree is what we keep (mvn keeps its own copy too)
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`Elasticsearch ${ELASTICSEARCH_VERSION}: unpacked in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** Download and unpack both engines into the cache (no-op when cached). */
export async function fetchArtifacts(opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    await fetchKafka(ctx);
    await fetchElasticsearch(ctx);
  });
}

// ---------------------------------------------------------------------------------------
// Kafka
// ---------------------------------------------------------------------------------------

function kafkaServerProperties(state, p) {
  return [
    '# Written by scripts/engines.mjs on every start; edits are lost.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.bootstrap.servers=127.0.0.1:${state.controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${state.port},CONTROLLER://127.0.0.1:${state.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${state.port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${p.data}`,
    'num.partitions=6',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    'auto.create.topics.enable=true',
    'delete.topic.enable=true',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    // After a crash (SIGKILL) the restarted broker cannot register until the controller has
    // expired its previous session: 9 s by default, 4 s here.
    'broker.heartbeat.interval.ms=500',
    'broker.session.timeout.ms=4000',
    'num.network.threads=2',
    'num.io.threads=4',
    'num.recovery.threads.per.data.dir=1',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

const KAFKA_LOG4J2 = `# Written by scripts/engines.mjs. The broker's console goes to logs/kafka.out.
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = WARN
logger.appinfo.name = org.apache.kafka.common.utils.AppInfoParser
logger.appinfo.level = WARN
logger.statechange.name = state.change.logger
logger.statechange.level = WARN
`;

/** A Kafka cluster id: 16 random bytes, base64url without padding, not starting with '-'. */
function kafkaClusterId() {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function kafkaJvmFlags(p) {
  return [
    '-Xms512m',
    '-Xmx512m',
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${p.log4j}`,
    `-Dkafka.logs.dir=${p.logs}`,
  ];
}

async function launchKafka(ctx, state, { fresh }) {
  const p = paths(ctx).kafka;
  await fetchKafka(ctx);
  const java = kafkaJava();
  fs.mkdirSync(p.logs, { recursive: true });
  fs.writeFileSync(p.config, kafkaServerProperties(state, p));
  fs.writeFileSync(p.log4j, KAFKA_LOG4J2);
  const classpath = path.join(p.libs, '*');

  if (fresh || !fs.existsSync(path.join(p.data, 'meta.properties'))) {
    fs.rmSync(p.data, { recursive: true, force: true });
    fs.mkdirSync(p.data, { recursive: true });
    const clusterId = kafkaClusterId();
    runChecked(java, [
      ...kafkaJvmFlags(p).filter((f) => !f.startsWith('-Xm')),
      '-Xmx256m',
      '-cp',
      classpath,
      'kafka.tools.StorageTool',
      'format',
      '--standalone',
      '-t',
      clusterId,
      '-c',
      p.config,
    ]);
    state.clusterId = clusterId;
  }

  const out = fs.openSync(p.out, 'a');
  fs.writeSync(out, `\n==== ${new Date().toISOString()} starting Kafka ${KAFKA_VERSION} on 127.0.0.1:${state.port} ====\n`);
  const child = spawn(
    java,
    [...kafkaJvmFlags(p), '-Dgitdex.engine=kafka', `-Dgitdex.engines.id=${ctx.id}`, '-cp', classpath, 'kafka.Kafka', p.config],
    { cwd: p.dir, detached: true, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  return detach(child, `${java} (Kafka)`);
}

/** The child runs on its own (own process group, no pipes to us); its pid is its group id. */
function detach(child, what) {
  child.on('error', (err) => log(`${what}: ${err.message}`));
  if (!child.pid) throw new Error(`could not start ${what}`);
  child.unref();
  return child.pid;
}

// ---------------------------------------------------------------------------------------
// Elasticsearch
// ---------------------------------------------------------------------------------------

function elasticsearchYml(state, p) {
  // The integ-test-zip has only a few modules (no analysis-common, mapper-extras, ingest-common,
  // ml, ...), so settings of absent modules (xpack.ml.enabled, ...) would be rejected at start.
  return [
    '# Written by scripts/engines.mjs on every start; edits are lost.',
    'cluster.name: gitdex-engines',
    'node.name: gitdex-engines-es',
    'node.roles: [master, data]', // no ingest: the distribution has no ingest processors anyway
    'discovery.type: single-node',
    'network.host: 127.0.0.1',
    `http.port: ${state.port}`,
    `transport.port: ${state.transportPort}`,
    `path.data: ${p.data}`,
    `path.logs: ${p.logs}`,
    'xpack.security.enabled: false',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.destructive_requires_name: false',
    '',
  ].join('\n');
}

/** uid/gid to run Elasticsearch with (it refuses to run as root); creates the system user if needed. */
function elasticsearchUser() {
  if (!isRoot()) return undefined;
  const lookup = () => {
    const uid = run('id', ['-u', ENGINE_USER], { stdio: ['ignore', 'pipe', 'ignore'] });
    const gid = run('id', ['-g', ENGINE_USER], { stdio: ['ignore', 'pipe', 'ignore'] });
    if (uid.status !== 0 || gid.status !== 0) return undefined;
    return { name: ENGINE_USER, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  let user = lookup();
  if (!user) {
    log(`creating system user ${ENGINE_USER} to run Elasticsearch (it refuses to run as root)`);
    const res = run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      ENGINE_USER,
    ]);
    user = lookup(); // another process may have created it meanwhile
    if (!user) throw new Error(`could not create user ${ENGINE_USER}: ${res.stderr || `useradd exit ${res.status}`}`);
  }
  return user;
}

/** The command prefix that drops root for the Elasticsearch process. */
function asUser(user, argv) {
  if (!user) return argv;
  const hasSetpriv = run('sh', ['-c', 'command -v setpriv'], { stdio: ['ignore', 'pipe', 'ignore'] }).status === 0;
  if (hasSetpriv) {
    return ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', ...argv];
  }
  return ['runuser', '-u', user.name, '--', ...argv];
}

async function launchElasticsearch(ctx, state, { fresh }) {
  const p = paths(ctx).elasticsearch;
  await fetchElasticsearch(ctx);
  const javaHome = elasticsearchJavaHome();
  const user = elasticsearchUser();

  if (fresh) fs.rmSync(p.data, { recursive: true, force: true });
  for (const dir of [p.data, p.logs, p.tmp]) fs.mkdirSync(dir, { recursive: true });
  // A fresh copy of the distribution's config with our elasticsearch.yml on top.
  fs.rmSync(p.config, { recursive: true, force: true });
  fs.cpSync(path.join(p.install, 'config'), p.config, { recursive: true });
  fs.writeFileSync(path.join(p.config, 'elasticsearch.yml'), elasticsearchYml(state, p));

  if (user) {
    runChecked('chown', ['-R', `${user.uid}:${user.gid}`, p.dir, p.install]);
    const probe = asUser(user, ['test', '-r', path.join(p.install, 'lib'), '-a', '-w', p.data]);
    if (run(probe[0], probe.slice(1)).status !== 0) {
      throw new Error(
        `user ${user.name} cannot reach ${p.dir} (a parent folder of ENGINES_HOME=${ctx.home} is not ` +
          'searchable by other users); set ENGINES_HOME to a folder under /tmp or /var/tmp',
      );
    }
  }

  const out = fs.openSync(p.out, 'a');
  fs.writeSync(out, `\n==== ${new Date().toISOString()} starting Elasticsearch ${ELASTICSEARCH_VERSION} on 127.0.0.1:${state.port} ====\n`);
  if (user) fs.fchownSync(out, user.uid, user.gid);
  const argv = asUser(user, [path.join(p.install, 'bin', 'elasticsearch')]);
  const env = {
    PATH: process.env.PATH || '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LANG: 'C.UTF-8',
    HOME: p.dir,
    ES_JAVA_HOME: javaHome,
    ES_PATH_CONF: p.config,
    ES_TMPDIR: p.tmp,
    ES_JAVA_OPTS: ['-Xms512m', '-Xmx512m', '-Dgitdex.engine=elasticsearch', `-Dgitdex.engines.id=${ctx.id}`].join(' '),
  };
  const child = spawn(argv[0], argv.slice(1), { cwd: p.dir, detached: true, stdio: ['ignore', out, out], env });
  fs.closeSync(out);
  return detach(child, `${argv[0]} (Elasticsearch)`);
}

// ---------------------------------------------------------------------------------------
// Engine table
// ---------------------------------------------------------------------------------------

const engineDefs = {
  kafka: {
    label: 'Kafka',
    version: () => KAFKA_VERSION,
    async newState(ctx, taken) {
      const port = await choosePort(ctx.ports.kafka, taken);
      const controllerPort = await choosePort(ctx.ports.kafkaController, [...taken, port]);
      return { port, controllerPort };
    },
    ports: (s) => [s.port, s.controllerPort],
    launch: launchKafka,
    healthy: (s) => kafkaHealthy(s.port),
    endpoint: (s) => `127.0.0.1:${s.port}`,
  },
  elasticsearch: {
    label: 'Elasticsearch',
    version: () => ELASTICSEARCH_VERSION,
    async newState(ctx, taken) {
      const port = await choosePort(ctx.ports.elasticsearch, taken);
      const transportPort = await choosePort(ctx.ports.elasticsearchTransport, [...taken, port]);
      return { port, transportPort };
    },
    ports: (s) => [s.port, s.transportPort],
    launch: launchElasticsearch,
    healthy: (s) => elasticsearchHealthy(s.port),
    endpoint: (s) => `http://127.0.0.1:${s.port}`,
  },
};

function loadState(ctx, name) {
  const state = readJson(paths(ctx)[name].state);
  if (!state || state.version !== engineDefs[name].version()) return undefined;
  return state;
}

/** running: a JVM of the engine is alive; healthy: it answers (Kafka metadata / ES cluster health). */
async function engineStatus(ctx, name) {
  const def = engineDefs[name];
  const state = loadState(ctx, name);
  const procs = engineProcesses(ctx, name);
  const running = procs.length > 0;
  const paused = running && procs.every((proc) => proc.state === 'T');
  const healthy = running && !paused && state ? await def.healthy(state) : false;
  return {
    engine: name,
    version: def.version(),
    running,
    paused,
    healthy,
    pid: procs[0]?.pid,
    endpoint: state ? def.endpoint(state) : undefined,
    state,
    log: paths(ctx)[name].out,
  };
}

async function waitHealthy(ctx, name, state, pgid) {
  const def = engineDefs[name];
  const out = paths(ctx)[name].out;
  const deadline = Date.now() + START_TIMEOUT_MS[name];
  while (Date.now() < deadline) {
    if (await def.healthy(state)) return;
    if (pgid && groupMembers(pgid).length === 0) {
      throw new Error(`${def.label} exited during start-up; last lines of ${out}:\n${tail(out)}`);
    }
    await sleep(250);
  }
  throw new Error(`${def.label} not healthy after ${START_TIMEOUT_MS[name] / 1000}s; last lines of ${out}:\n${tail(out)}`);
}

/**
 * Start one engine. fresh: wipe its data and pick ports anew (a cold start); otherwise keep its
 * data and ports (a restart). Returns true when it was started, false when it already ran.
 */
async function startOne(ctx, name, { fresh, taken = [] }) {
  const def = engineDefs[name];
  const current = await engineStatus(ctx, name);
  if (current.running && current.state) {
    if (current.paused) {
      for (const g of engineGroups(ctx, name)) signalGroup(g, 'SIGCONT');
    }
    if (!current.healthy) {
      log(`${def.label} is running but not answering yet; waiting`);
      try {
        await waitHealthy(ctx, name, current.state, undefined);
      } catch (err) {
        log(`${def.label} did not become healthy (${err.message.split('\n')[0]}); restarting it`);
        await killGroups(name, engineGroups(ctx, name));
        return startOne(ctx, name, { fresh, taken });
      }
    }
    log(`${def.label} ${def.version()} already running at ${def.endpoint(current.state)} (pid ${current.pid}); reusing it`);
    return false;
  }
  if (current.running) await killGroups(name, engineGroups(ctx, name)); // no usable state: start over

  let state = loadState(ctx, name);
  if (fresh || !state) {
    state = { version: def.version(), ...(await def.newState(ctx, taken)) };
    fresh = true;
  } else {
    for (const port of def.ports(state)) {
      if (!(await portFree(port))) throw new Error(`${def.label} cannot restart: port ${port} is taken by another process`);
    }
  }
  const started = Date.now();
  log(`starting ${def.label} ${def.version()} on ${def.endpoint(state)}${fresh ? ' (fresh data)' : ' (keeping data)'}`);
  const pgid = await def.launch(ctx, state, { fresh });
  writeJson(paths(ctx)[name].state, { ...state, pgid, startedAt: new Date().toISOString() });
  try {
    await waitHealthy(ctx, name, state, pgid);
  } catch (err) {
    const groups = [pgid, ...engineGroups(ctx, name)].filter((g, i, a) => a.indexOf(g) === i);
    await killGroups(name, groups, { force: true }).catch(() => {});
    throw err;
  }
  log(`${def.label} healthy after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return true;
}

async function stopOne(ctx, name, { force = false } = {}) {
  const def = engineDefs[name];
  const groups = engineGroups(ctx, name);
  if (groups.length === 0) {
    log(`${def.label} is not running`);
    return false;
  }
  const started = Date.now();
  log(`stopping ${def.label}${force ? ' (SIGKILL)' : ''}`);
  await killGroups(name, groups, { force });
  log(`${def.label} stopped after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return true;
}

function engineList(name) {
  if (name === undefined || name === 'all') return ENGINES;
  if (Array.isArray(name)) return name.map(canonicalName);
  return [canonicalName(name)];
}

function endpointsNow(ctx) {
  const k = loadState(ctx, 'kafka');
  const e = loadState(ctx, 'elasticsearch');
  return {
    kafkaBrokers: k ? engineDefs.kafka.endpoint(k) : undefined,
    elasticsearchUrl: e ? engineDefs.elasticsearch.endpoint(e) : undefined,
  };
}

// ---------------------------------------------------------------------------------------
// Library API. Every function takes optional EngineOptions last (default: the set in
// ENGINES_HOME on the fixed ports; privateOptions() gives an isolated set).
// ---------------------------------------------------------------------------------------

/**
 * Start the engines (both, or opts.engines), or reuse the ones running and healthy. A cold start
 * wipes the engine's data. Resolves to the endpoints and which engines this call started.
 * @param {EngineOptions & { engines?: Array<'kafka' | 'elasticsearch'> }} [opts]
 * @returns {Promise<{ kafkaBrokers?: string, elasticsearchUrl?: string, started: { kafka: boolean, elasticsearch: boolean } }>}
 */
export async function up(opts = {}) {
  const ctx = makeContext(opts);
  const wanted = engineList(opts.engines);
  if (!opts.home) await sweepPrivate(opts);
  return withLock(ctx, async () => {
    // Downloads one after the other (one local Maven repository), then the JVMs at once.
    if (wanted.includes('kafka')) await fetchKafka(ctx);
    if (wanted.includes('elasticsearch')) await fetchElasticsearch(ctx);
    const kafkaState = loadState(ctx, 'kafka');
    const esState = loadState(ctx, 'elasticsearch');
    const reserved = (s, def) => (s ? def.ports(s) : []);
    const [kafka, elasticsearch] = await Promise.all([
      wanted.includes('kafka')
        ? startOne(ctx, 'kafka', { fresh: true, taken: reserved(esState, engineDefs.elasticsearch) })
        : false,
      wanted.includes('elasticsearch')
        ? startOne(ctx, 'elasticsearch', { fresh: true, taken: reserved(kafkaState, engineDefs.kafka) })
        : false,
    ]);
    return { ...endpointsNow(ctx), started: { kafka, elasticsearch } };
  });
}

/** Stop both engines and wait until none of their processes is left (and sweep orphaned private sets). */
export async function down(opts = {}) {
  const ctx = makeContext(opts);
  await withLock(ctx, async () => {
    for (const name of ENGINES) await stopOne(ctx, name);
  });
  await sweepPrivate(opts);
}

/**
 * Private sets live in <home>/private/<label>-<pid>-<random>. Stop and delete those whose
 * creating process is gone (a test worker that was killed before its afterAll ran).
 */
export async function sweepPrivate(opts = {}) {
  const ctx = makeContext(opts);
  return logStore.run(ctx.log, () => sweep(ctx, opts));
}

async function sweep(ctx, opts) {
  const dir = path.join(ctx.home, 'private');
  let entries = [];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = Number(/-(\d+)-[0-9a-f]{6}$/.exec(entry)?.[1] || 0);
    if (owner && pidAlive(owner)) continue;
    log(`removing orphaned private engines ${entry}`);
    await destroy({ home: path.join(dir, entry), cache: ctx.cache, log: opts.log }).catch((err) =>
      log(`could not remove ${entry}: ${err.message}`),
    );
  }
}

/** down(), then delete the home folder (for private sets; never the shared cache). */
export async function destroy(opts = {}) {
  const ctx = makeContext(opts);
  await withLock(ctx, async () => {
    for (const name of ENGINES) await stopOne(ctx, name);
  });
  if (path.resolve(ctx.cache).startsWith(path.resolve(ctx.home) + path.sep)) {
    throw new Error(`destroy: the cache ${ctx.cache} is inside ${ctx.home}; refusing to delete it`);
  }
  fs.rmSync(ctx.home, { recursive: true, force: true });
}

/**
 * Stop one engine, keeping its data and ports, so startEngine() brings it back as it was.
 * force: SIGKILL at once (a crash) instead of a clean SIGTERM shutdown.
 * @param {'kafka' | 'elasticsearch' | 'es' | 'all'} name
 * @param {EngineOptions & { force?: boolean }} [opts]
 */
export async function stopEngine(name, opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    for (const n of engineList(name)) await stopOne(ctx, n, opts);
  });
}

/** Start one engine that was stopped, with its data and on its previous ports (or fresh if it never ran). */
export async function startEngine(name, opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    for (const n of engineList(name)) await startOne(ctx, n, { fresh: false });
    return endpointsNow(ctx);
  });
}

/** stopEngine + startEngine (force: SIGKILL first, a crash-restart). */
export async function restartEngine(name, opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    for (const n of engineList(name)) {
      await stopOne(ctx, n, opts);
      await startOne(ctx, n, { fresh: false });
    }
    return endpointsNow(ctx);
  });
}

/** SIGSTOP the engine: its ports stay open but nothing answers (a hung engine). */
export async function pauseEngine(name, opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    for (const n of engineList(name)) {
      const groups = engineGroups(ctx, n);
      if (groups.length === 0) throw new Error(`${engineDefs[n].label} is not running`);
      for (const g of groups) signalGroup(g, 'SIGSTOP');
      log(`${engineDefs[n].label} paused`);
    }
  });
}

/** SIGCONT a paused engine and wait until it answers again. */
export async function resumeEngine(name, opts = {}) {
  const ctx = makeContext(opts);
  return withLock(ctx, async () => {
    for (const n of engineList(name)) {
      const groups = engineGroups(ctx, n);
      if (groups.length === 0) throw new Error(`${engineDefs[n].label} is not running`);
      for (const g of groups) signalGroup(g, 'SIGCONT');
      const state = loadState(ctx, n);
      if (state) await waitHealthy(ctx, n, state, undefined);
      log(`${engineDefs[n].label} resumed`);
    }
  });
}

/** The state of both engines (no lock: it only looks). */
export async function status(opts = {}) {
  const ctx = makeContext(opts);
  const result = {};
  for (const name of ENGINES) result[name] = await engineStatus(ctx, name);
  return result;
}

/** The endpoints recorded for a home (whether or not the engines run now). */
export function endpoints(opts = {}) {
  return endpointsNow(makeContext(opts));
}

// ---------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------

const USAGE = `usage: node scripts/engines.mjs <command> [engine]
  up                        start Kafka and Elasticsearch (or reuse running ones); prints the endpoints
  down                      stop both
  status                    show both; exit 0 when both are healthy, 3 otherwise
  stop <engine> [--kill]    stop one engine, keep its data (--kill: SIGKILL, like a crash)
  start <engine>            start one engine again on its previous port with its data
  restart <engine> [--kill] stop + start
  pause <engine>            SIGSTOP (port open, no answers); resume <engine> undoes it
  fetch                     download the artifacts into the cache only
engine: kafka | elasticsearch (es) | all
ENGINES_HOME=${enginesHome()}`;

export async function main(argv) {
  const [command, ...rest] = argv;
  const force = rest.includes('--kill');
  const target = rest.find((a) => !a.startsWith('--'));
  const printEndpoints = () => {
    const e = endpoints();
    process.stdout.write(`KAFKA_BROKERS=${e.kafkaBrokers}\nELASTICSEARCH_URL=${e.elasticsearchUrl}\n`);
  };
  switch (command) {
    case 'up': {
      await up();
      printEndpoints();
      return 0;
    }
    case 'down':
      await down();
      return 0;
    case 'status': {
      const s = await status();
      let ok = true;
      for (const name of ENGINES) {
        const e = s[name];
        ok &&= e.healthy;
        const what = e.running ? (e.paused ? 'paused' : e.healthy ? 'healthy' : 'running, not answering') : 'stopped';
        process.stdout.write(
          `${name} ${e.version}: ${what}${e.pid ? ` pid=${e.pid}` : ''}${e.endpoint ? ` ${e.endpoint}` : ''} log=${e.log}\n`,
        );
      }
      return ok ? 0 : 3;
    }
    case 'start':
      await startEngine(target ?? 'all');
      return 0;
    case 'stop':
      await stopEngine(target ?? 'all', { force });
      return 0;
    case 'restart':
      await restartEngine(target ?? 'all', { force });
      return 0;
    case 'pause':
      await pauseEngine(target ?? 'all');
      return 0;
    case 'resume':
      await resumeEngine(target ?? 'all');
      return 0;
    case 'fetch':
      await fetchArtifacts();
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

const invokedDirectly = (() => {
  try {
    return Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]) === fs.realpathSync(SELF);
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`[engines] error: ${err && err.stack ? err.stack : err}\n`);
      process.exit(1);
    },
  );
}
