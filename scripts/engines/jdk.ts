// Which Java each engine runs on: JDK homes found on this machine, or the ones named by the caller.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** JDK homes the caller names (the CLI takes them from ES_JAVA_HOME, KAFKA_JAVA_HOME, JAVA_HOME). */
export interface JavaChoice {
  elasticsearchJavaHome?: string | undefined;
  kafkaJavaHome?: string | undefined;
  javaHome?: string | undefined;
}

export interface JdkHome {
  home: string;
  major: number;
}

function majorOf(version: RegExpMatchArray | null): number {
  if (!version) return 0;
  return version[1] === '1' ? Number(version[2]) : Number(version[1]);
}

export function javaMajorOfHome(home: string): number {
  try {
    return majorOf(fs.readFileSync(path.join(home, 'release'), 'utf8').match(/^JAVA_VERSION="(\d+)(?:\.(\d+))?/m));
  } catch {
    return 0;
  }
}

export function javaMajorOfBinary(bin: string): number {
  const res = spawnSync(bin, ['-version'], { encoding: 'utf8' });
  if (res.error) return 0;
  return majorOf(`${res.stderr}${res.stdout}`.match(/version "(\d+)(?:\.(\d+))?/));
}

/** JDK homes on this machine, newest first, Temurin first among equals (/usr/lib/jvm/*, /opt/java/*, ...). */
export function discoverJdks(): JdkHome[] {
  const roots = ['/usr/lib/jvm', '/opt/java', '/opt/jdk', '/usr/local/lib/jvm', '/usr/java'];
  const homes: JdkHome[] = [];
  for (const root of roots) {
    let entries: string[];
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
  return homes.sort((a, b) => b.major - a.major || Number(/temurin/.test(b.home)) - Number(/temurin/.test(a.home)));
}

/** The JDK home Elasticsearch runs on: the one named, else the newest JDK >= 21 found. */
export function elasticsearchJavaHome(choice: JavaChoice, esVersion: string): string {
  if (choice.elasticsearchJavaHome) return choice.elasticsearchJavaHome;
  if (choice.javaHome && javaMajorOfHome(choice.javaHome) >= 21) return choice.javaHome;
  const jdk = discoverJdks().find((j) => j.major >= 21);
  if (!jdk) {
    throw new Error(`Elasticsearch ${esVersion} needs Java 21 or newer and none was found under /usr/lib/jvm (set ES_JAVA_HOME to a JDK 21+ home)`);
  }
  return jdk.home;
}

/** The java binary Kafka runs on: a named home if >= 17, `java` on PATH if >= 17, else a JDK found. */
export function kafkaJava(choice: JavaChoice, kafkaVersion: string): string {
  for (const home of [choice.kafkaJavaHome, choice.javaHome]) {
    if (home && fs.existsSync(path.join(home, 'bin', 'java')) && (javaMajorOfHome(home) || 17) >= 17) return path.join(home, 'bin', 'java');
  }
  if (javaMajorOfBinary('java') >= 17) return 'java';
  const jdk = discoverJdks().find((j) => j.major >= 17);
  if (!jdk) throw new Error(`Kafka ${kafkaVersion} needs Java 17 or newer and none was found`);
  return path.join(jdk.home, 'bin', 'java');
}
