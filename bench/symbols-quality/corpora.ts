import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A set of real files of one language. `tuning` sets are the ones looked at while writing the
 * queries; `held-out` sets were never looked at for that, and must stay so: a fix found by
 * reading a held-out miss is tuning on it (docs/design/symbols.md).
 */
export interface QualitySet {
  name: string;
  language: string;
  role: 'tuning' | 'held-out';
  root: string;
  extensions: readonly string[];
  /** Folders left out (test data that is not real code). */
  skip?: RegExp;
}

const goRoot = () => {
  try {
    return execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  } catch {
    return '/usr/local/go';
  }
};

/** Java sources of the newest JDK on the machine with src.zip, unpacked once into a scratch folder. */
function jdkSources(scratch: string): string {
  const jvm = '/usr/lib/jvm';
  if (!existsSync(jvm)) return join(scratch, 'absent');
  const zips = readdirSync(jvm)
    .map((d) => [join(jvm, d, 'lib', 'src.zip'), join(jvm, d, 'src.zip')])
    .flat()
    .filter((p) => existsSync(p) && statSync(p).isFile())
    .sort()
    .reverse();
  const target = join(scratch, 'jdk');
  if (zips[0] && !existsSync(join(target, 'java.base'))) {
    mkdirSync(target, { recursive: true });
    execFileSync('unzip', ['-q', '-o', zips[0], 'java.base/java/util/*', 'java.base/java/io/*', '-d', target]);
  }
  return target;
}

export function qualitySets(scratch: string, extra: readonly QualitySet[] = []): QualitySet[] {
  const repo = join(__dirname, '..', '..');
  const python = readdirSync('/usr/lib')
    .filter((d) => /^python3\.\d+$/.test(d))
    .sort()
    .pop();
  return [
    // Tuning: the npm packages the rest of the bench already reads.
    { name: 'npm packages (TypeScript)', language: 'TypeScript', role: 'tuning', root: join(repo, 'node_modules', 'zod'), extensions: ['.ts'], skip: /\.d\.ts$|\/tests?\// },
    { name: 'npm packages (JavaScript)', language: 'JavaScript', role: 'tuning', root: join(repo, 'node_modules', 'express'), extensions: ['.js'] },
    { name: 'npm packages (JavaScript)', language: 'JavaScript', role: 'tuning', root: join(repo, 'node_modules', 'kafkajs', 'src'), extensions: ['.js'], skip: /\.spec\.js$/ },
    { name: 'npm packages (C)', language: 'C', role: 'tuning', root: join(repo, 'node_modules', 'cpu-features', 'deps', 'cpu_features'), extensions: ['.c', '.h'] },
    { name: 'npm packages (C++)', language: 'C++', role: 'tuning', root: join(repo, 'node_modules', 'node-addon-api'), extensions: ['.h'] },
    // A checkout of google/leveldb (SYMBOLS_LEVELDB, /tmp/leveldb by default): C++ tuning code
    // with more shapes than node-addon-api's two headers; its empty submodules stay out.
    { name: 'leveldb', language: 'C++', role: 'tuning', root: process.env.SYMBOLS_LEVELDB ?? '/tmp/leveldb', extensions: ['.cc', '.h'], skip: /\/third_party\// },
    // A checkout of google/re2 (SYMBOLS_RE2, /tmp/re2 by default): C++ tuning code.
    { name: 're2', language: 'C++', role: 'tuning', root: process.env.SYMBOLS_RE2 ?? '/tmp/re2', extensions: ['.cc', '.h'] },
    // A checkout of abseil-cpp (SYMBOLS_ABSEIL, /tmp/abseil-cpp by default): C++ tuning code, only
    // absl/strings, absl/container, absl/base and absl/synchronization, so a round stays quick.
    {
      name: 'abseil (strings, container, base, synchronization)',
      language: 'C++',
      role: 'tuning',
      root: join(process.env.SYMBOLS_ABSEIL ?? '/tmp/abseil-cpp', 'absl'),
      extensions: ['.cc', '.h'],
      skip: /\/absl\/(?!(strings|container|base|synchronization)\/)[^/]+\//,
    },
    // Held out.
    {
      name: `Python standard library (${python})`,
      language: 'Python',
      role: 'held-out',
      root: join('/usr/lib', python ?? 'python3'),
      extensions: ['.py'],
      skip: /\/(test|tests|idlelib|lib2to3|site-packages|dist-packages)\//,
    },
    { name: 'Go standard library', language: 'Go', role: 'held-out', root: join(goRoot(), 'src'), extensions: ['.go'], skip: /\/(testdata|cmd|vendor)\/|_test\.go$/ },
    { name: 'JDK java.util and java.io', language: 'Java', role: 'held-out', root: jdkSources(scratch), extensions: ['.java'] },
    { name: 'googletest', language: 'C++', role: 'held-out', root: '/usr/src/googletest', extensions: ['.cc', '.h'] },
    { name: 'Go runtime C sources', language: 'C', role: 'held-out', root: join(goRoot(), 'src', 'runtime', 'cgo'), extensions: ['.c'] },
    { name: 'Google App Engine PHP SDK', language: 'PHP', role: 'held-out', root: '/usr/lib/google-cloud-sdk/platform/google_appengine/php/sdk', extensions: ['.php'], skip: /\/third_party\// },
    ...extra,
  ].filter((set) => existsSync(set.root)) as QualitySet[];
}

/** Files of a set, sorted; at most `limit`, taken evenly across the sorted list. */
export function filesOf(set: QualitySet, limit: number): string[] {
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && set.extensions.some((e) => entry.name.endsWith(e)) && !(set.skip && set.skip.test(path))) all.push(relative(set.root, path));
    }
  };
  walk(set.root);
  all.sort();
  if (all.length <= limit) return all;
  const step = all.length / limit;
  return Array.from({ length: limit }, (_, i) => all[Math.floor(i * step)]!);
}
