// Elasticsearch refuses to run as root: as root, it runs as a system user of its own.
import { run, isRoot, hasCommand, type Log } from './util.ts';

export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

/** uid/gid to run Elasticsearch with when we are root (creating the user if needed); undefined otherwise. */
export function engineUser(name: string, log: Log): SystemUser | undefined {
  if (!isRoot()) return undefined;
  const lookup = (): SystemUser | undefined => {
    const uid = run('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] });
    const gid = run('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] });
    if (uid.status !== 0 || gid.status !== 0) return undefined;
    return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  let user = lookup();
  if (!user) {
    log(`creating system user ${name} to run Elasticsearch (it refuses to run as root)`);
    const res = run('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name]);
    user = lookup(); // another process may have created it meanwhile
    if (!user) throw new Error(`could not create user ${name}: ${res.stderr || `useradd exit ${res.status}`}`);
  }
  return user;
}

/** The command prefix that drops root for a process. */
export function asUser(user: SystemUser | undefined, argv: string[]): string[] {
  if (!user) return argv;
  if (hasCommand('setpriv')) return ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', ...argv];
  return ['runuser', '-u', user.name, '--', ...argv];
}
