// Launching one single-node engine as a background JVM: fetch its artifact, write its config
// (Kafka's storage formatted on a fresh start; Elasticsearch's distribution config with our
// elasticsearch.yml on top, handed to the engine user when we are root), then spawn it detached.
import fs from 'node:fs';
import path from 'node:path';
import { fetchElasticsearch, fetchKafka, type ArtifactOptions } from './artifacts.ts';
import { elasticsearchSingleYml, KAFKA_LOG4J2, kafkaClusterId, kafkaJvmFlags, kafkaSingleProperties } from './config-files.ts';
import { elasticsearchJavaHome, kafkaJava } from './jdk.ts';
import { processMarks, spawnDetached } from './processes.ts';
import type { EnginesSettings } from './settings.ts';
import { paths, type Context } from './single-layout.ts';
import type { EngineState } from './single-types.ts';
import { asUser, engineUser } from './system-user.ts';
import { run, runChecked, type Log } from './util.ts';

export const artifactOptions = (settings: EnginesSettings, ctx: Context, log: Log): ArtifactOptions => ({
  cache: ctx.cache,
  pom: path.join(settings.repoRoot, 'scripts', 'engines', 'engines-pom.xml'),
  kafkaVersion: settings.kafkaVersion,
  elasticsearchVersion: settings.elasticsearchVersion,
  log,
  javaHomeForJar: () => elasticsearchJavaHome(settings.java, settings.elasticsearchVersion),
});

/** Resolves to the process group of the started broker. */
export async function launchKafka(settings: EnginesSettings, log: Log, ctx: Context, state: EngineState, fresh: boolean): Promise<number> {
  const p = paths(settings, ctx).kafka;
  await fetchKafka(artifactOptions(settings, ctx, log));
  const java = kafkaJava(settings.java, settings.kafkaVersion);
  fs.mkdirSync(p.logs, { recursive: true });
  fs.writeFileSync(p.config, kafkaSingleProperties(state.port, state.controllerPort ?? 0, p.data));
  fs.writeFileSync(p.log4j, KAFKA_LOG4J2);
  const flags = kafkaJvmFlags(512, p.log4j, p.logs, false);
  const classpath = path.join(p.libs, '*');
  if (fresh || !fs.existsSync(path.join(p.data, 'meta.properties'))) {
    fs.rmSync(p.data, { recursive: true, force: true });
    fs.mkdirSync(p.data, { recursive: true });
    const clusterId = kafkaClusterId();
    runChecked(java, [...flags.filter((f) => !f.startsWith('-Xm')), '-Xmx256m', '-cp', classpath, 'kafka.tools.StorageTool', 'format', '--standalone', '-t', clusterId, '-c', p.config]);
    state.clusterId = clusterId;
  }
  fs.appendFileSync(p.out, `\n==== ${new Date().toISOString()} starting Kafka ${settings.kafkaVersion} on 127.0.0.1:${state.port} ====\n`);
  return spawnDetached([java, ...flags, ...processMarks('kafka', ctx.id), '-cp', classpath, 'kafka.Kafka', p.config], { cwd: p.dir, outFile: p.out }, log);
}

/** Resolves to the process group of the started node (its launcher script's). */
export async function launchElasticsearch(settings: EnginesSettings, log: Log, ctx: Context, state: EngineState, fresh: boolean): Promise<number> {
  const p = paths(settings, ctx).elasticsearch;
  await fetchElasticsearch(artifactOptions(settings, ctx, log));
  const javaHome = elasticsearchJavaHome(settings.java, settings.elasticsearchVersion);
  const user = engineUser(settings.engineUser, log);
  if (fresh) fs.rmSync(p.data, { recursive: true, force: true });
  for (const dir of [p.data, p.logs, p.tmp]) fs.mkdirSync(dir, { recursive: true });
  // A fresh copy of the distribution's config with our elasticsearch.yml on top.
  fs.rmSync(p.config, { recursive: true, force: true });
  fs.cpSync(path.join(p.install, 'config'), p.config, { recursive: true });
  fs.writeFileSync(path.join(p.config, 'elasticsearch.yml'), elasticsearchSingleYml(state.port, state.transportPort ?? 0, p.data, p.logs));
  if (user) {
    runChecked('chown', ['-R', `${user.uid}:${user.gid}`, p.dir, p.install]);
    const probe = asUser(user, ['test', '-r', path.join(p.install, 'lib'), '-a', '-w', p.data]);
    if (run(probe[0]!, probe.slice(1)).status !== 0) {
      throw new Error(`user ${user.name} cannot reach ${p.dir} (a parent folder of ENGINES_HOME=${ctx.home} is not searchable by other users); set ENGINES_HOME to a folder under /tmp or /var/tmp`);
    }
  }
  fs.appendFileSync(p.out, `\n==== ${new Date().toISOString()} starting Elasticsearch ${settings.elasticsearchVersion} on 127.0.0.1:${state.port} ====\n`);
  const env = {
    PATH: process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LANG: 'C.UTF-8',
    HOME: p.dir,
    ES_JAVA_HOME: javaHome,
    ES_PATH_CONF: p.config,
    ES_TMPDIR: p.tmp,
    ES_JAVA_OPTS: [`-Xms${settings.elasticsearchHeapMb}m`, `-Xmx${settings.elasticsearchHeapMb}m`, ...processMarks('elasticsearch', ctx.id)].join(' '),
  };
  return spawnDetached(asUser(user, [path.join(p.install, 'bin', 'elasticsearch')]), { cwd: p.dir, outFile: p.out, env, outOwner: user }, log);
}
