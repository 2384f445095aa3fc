// A secured variant of the single Kafka broker, for the tests of gitdex's TLS and SASL settings:
// the same cached artifacts, a SASL_SSL listener (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) that also
// asks for a client certificate, on free ports in a folder of its own. The broker's own traffic
// (controller, inter-broker) stays on loopback plaintext listeners no client is told about.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fetchKafka } from './artifacts.ts';
import { KAFKA_LOG4J2, kafkaClusterId, kafkaJvmFlags, kafkaSingleProperties } from './config-files.ts';
import { kafkaJava } from './jdk.ts';
import { ephemeralPort } from './ports.ts';
import { killGroups, processMarks, spawnDetached } from './processes.ts';
import type { EnginesSettings } from './settings.ts';
import { artifactOptions } from './single-launch.ts';
import { makeContext } from './single-layout.ts';
import { runChecked, sleep, tail, type Log } from './util.ts';

export type ScramMechanism = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface SecuredKafkaOptions {
  /** PEM texts: the CA that signed the broker's certificate and the clients' certificates, and the broker's own certificate and PKCS#8 key. */
  tls: { caPem: string; certPem: string; keyPem: string };
  /** Users of SASL PLAIN, and of SCRAM (by mechanism). */
  plainUsers?: { name: string; password: string }[];
  scramUsers?: { mechanism: ScramMechanism; name: string; password: string }[];
  log?: Log;
}

export interface SecuredKafka {
  /** host:port of the SASL_SSL listener. */
  brokers: string;
  home: string;
  /** Stops the broker and deletes its folder. */
  stop(): Promise<void>;
}

/** Java properties text: a PEM block on one line, its breaks escaped. */
const inline = (pem: string) => pem.trim().replace(/\r?\n/g, '\\n');

/** Starts the broker and resolves once it serves the SASL_SSL listener (~5-10 s on 2 cores). */
export async function startSecuredKafka(settings: EnginesSettings, o: SecuredKafkaOptions): Promise<SecuredKafka> {
  const log = o.log ?? settings.log;
  // Under <home>/private/<label>-<pid>-<random>: swept as an orphan (cluster-* mark) if the test dies.
  const home = path.join(settings.home, 'private', `secured-kafka-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  const ctx = makeContext(settings, { home, log });
  const libs = await fetchKafka(artifactOptions(settings, ctx, log));
  const java = kafkaJava(settings.java, settings.kafkaVersion);
  const [port, internal, controller] = [await ephemeralPort(), await ephemeralPort(), await ephemeralPort()];
  const dir = path.join(home, 'kafka');
  const data = path.join(dir, 'data');
  const logs = path.join(dir, 'logs');
  const out = path.join(logs, 'kafka.out');
  fs.mkdirSync(data, { recursive: true });
  fs.mkdirSync(logs, { recursive: true });
  const config = path.join(dir, 'server.properties');
  const log4j = path.join(dir, 'log4j2.properties');
  const plain = (o.plainUsers ?? []).map((u) => `user_${u.name}="${u.password}"`).join(' ');
  // Later keys override the single broker's: listeners, their protocols and the SASL_SSL listener's settings.
  fs.writeFileSync(
    config,
    [
      kafkaSingleProperties(internal, controller, data),
      `listeners=PLAINTEXT://127.0.0.1:${internal},SASL_SSL://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controller}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${internal},SASL_SSL://127.0.0.1:${port}`,
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL',
      'inter.broker.listener.name=PLAINTEXT',
      'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      `listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required ${plain};`,
      'listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'ssl.keystore.type=PEM',
      `ssl.keystore.certificate.chain=${inline(o.tls.certPem)}`,
      `ssl.keystore.key=${inline(o.tls.keyPem)}`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.certificates=${inline(o.tls.caPem)}`,
      'ssl.client.auth=required',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(log4j, KAFKA_LOG4J2);
  const flags = kafkaJvmFlags(384, log4j, logs);
  const classpath = path.join(libs, '*');
  const scram = (o.scramUsers ?? []).flatMap((u) => ['--add-scram', `${u.mechanism}=[name=${u.name},password=${u.password}]`]);
  runChecked(java, [...flags.filter((f) => !f.startsWith('-Xm')), '-Xmx256m', '-cp', classpath, 'kafka.tools.StorageTool', 'format', '--standalone', '-t', kafkaClusterId(), '-c', config, ...scram]);
  const pgid = spawnDetached([java, ...flags, ...processMarks('cluster-secured-kafka', ctx.id), '-cp', classpath, 'kafka.Kafka', config], { cwd: dir, outFile: out }, log);
  const stop = async () => {
    await killGroups('secured Kafka', [pgid], log, { stopTimeoutMs: 10_000 });
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitListening(port, out, pgid);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`secured Kafka on 127.0.0.1:${port} (SASL_SSL)`);
  return { brokers: `127.0.0.1:${port}`, home, stop };
}

async function waitListening(port: number, out: string, pgid: number, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (/Kafka Server started/.test(fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '') && (await accepts(port))) return;
    try {
      process.kill(pgid, 0);
    } catch {
      throw new Error(`the secured Kafka exited at start:\n${tail(out)}`);
    }
    await sleep(250);
  }
  throw new Error(`the secured Kafka did not start within ${ms / 1000}s:\n${tail(out)}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
