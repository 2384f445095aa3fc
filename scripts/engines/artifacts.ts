// The engines' artifacts, fetched from Maven Central with the ordinary `mvn` client
// (scripts/engines/engines-pom.xml) into a cache that several homes may share.
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './locks.ts';
import { hasCommand, run, runChecked, tailText, type Log } from './util.ts';

const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const esArtifact = (version: string) => `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`;

export interface ArtifactOptions {
  cache: string;
  /** scripts/engines/engines-pom.xml. */
  pom: string;
  kafkaVersion: string;
  elasticsearchVersion: string;
  log: Log;
  /** A JDK home with the `jar` tool, used to unpack when `unzip` is missing. */
  javaHomeForJar: () => string;
}

/** Where the cached artifacts are once fetched. */
export function artifactPaths(cache: string, kafkaVersion: string, elasticsearchVersion: string) {
  return {
    kafkaLibs: path.join(cache, `kafka-${kafkaVersion}`, 'libs'),
    elasticsearchInstall: path.join(cache, `elasticsearch-${elasticsearchVersion}`),
    downloads: path.join(cache, 'downloads'),
  };
}

function mvn(pom: string, args: string[]): void {
  if (!hasCommand('mvn')) throw new Error('`mvn` (Apache Maven) is needed to fetch the engines: apt-get install maven');
  const res = run('mvn', ['-B', '-q', '-Dstyle.color=never', '-f', pom, ...args], { cwd: path.dirname(pom), stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.status !== 0) throw new Error(`mvn ${args.join(' ')} failed (exit ${res.status}):\n${tailText(`${res.stdout}${res.stderr}`)}`);
}

/** Fills the cache once (behind a lock in the cache, and a marker file written last). */
async function once(opts: ArtifactOptions, marker: string, fn: () => void): Promise<void> {
  if (fs.existsSync(marker)) return;
  await withLock(path.join(opts.cache, '.fetch.lock'), opts.log, () => {
    if (!fs.existsSync(marker)) fn();
    return Promise.resolve();
  });
}

/** Kafka's jars (org.apache.kafka:kafka_2.13 and its runtime dependencies); resolves to the libs folder. */
export async function fetchKafka(opts: ArtifactOptions): Promise<string> {
  const { kafkaLibs } = artifactPaths(opts.cache, opts.kafkaVersion, opts.elasticsearchVersion);
  const marker = path.join(path.dirname(kafkaLibs), '.complete');
  await once(opts, marker, () => {
    const started = Date.now();
    opts.log(`fetching Kafka ${opts.kafkaVersion} (org.apache.kafka:kafka_2.13 and its runtime dependencies) with mvn`);
    const tmp = `${kafkaLibs}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(kafkaLibs, { recursive: true, force: true });
    mvn(opts.pom, [`${DEPENDENCY_PLUGIN}:copy-dependencies`, `-Dkafka.version=${opts.kafkaVersion}`, `-DoutputDirectory=${tmp}`]);
    const jars = fs.readdirSync(tmp).filter((f) => f.endsWith('.jar'));
    if (!jars.some((j) => j.startsWith(`kafka_2.13-${opts.kafkaVersion}`))) throw new Error(`mvn did not bring kafka_2.13-${opts.kafkaVersion}.jar into ${tmp}`);
    fs.renameSync(tmp, kafkaLibs);
    fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
    opts.log(`Kafka ${opts.kafkaVersion}: ${jars.length} jars in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
  return kafkaLibs;
}

/** The Elasticsearch integ-test-zip, unpacked; resolves to the install folder. */
export async function fetchElasticsearch(opts: ArtifactOptions): Promise<string> {
  const { elasticsearchInstall: install, downloads } = artifactPaths(opts.cache, opts.kafkaVersion, opts.elasticsearchVersion);
  const marker = path.join(install, '.complete');
  await once(opts, marker, () => {
    const started = Date.now();
    const version = opts.elasticsearchVersion;
    opts.log(`fetching Elasticsearch ${version} (${esArtifact(version)}) with mvn`);
    fs.mkdirSync(downloads, { recursive: true });
    const zip = path.join(downloads, `elasticsearch-${version}.zip`);
    if (!fs.existsSync(zip)) mvn(opts.pom, [`${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${esArtifact(version)}`, `-DoutputDirectory=${downloads}`]);
    if (!fs.existsSync(zip)) throw new Error(`mvn did not bring ${path.basename(zip)} into ${downloads}`);
    const tmp = `${install}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(install, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    const unzip = hasCommand('unzip');
    // The JDK's jar tool unpacks too, but drops the executable bits.
    if (unzip) runChecked('unzip', ['-q', zip, '-d', tmp]);
    else runChecked(path.join(opts.javaHomeForJar(), 'bin', 'jar'), ['xf', zip], { cwd: tmp });
    const top = fs.readdirSync(tmp).find((d) => d.startsWith('elasticsearch-'));
    if (!top) throw new Error(`unexpected layout in ${zip}`);
    fs.renameSync(path.join(tmp, top), install);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!unzip) runChecked('chmod', ['-R', 'a+x', path.join(install, 'bin')]);
    fs.rmSync(zip, { force: true }); // the unpacked tree is what we keep (mvn keeps its own copy too)
    fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
    opts.log(`Elasticsearch ${version}: unpacked in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
  return install;
}
