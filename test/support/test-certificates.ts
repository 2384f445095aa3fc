// Certificates for the secured-engine tests, made with openssl into a folder of the test's own:
// a CA, a server certificate for 127.0.0.1 and localhost signed by it, a client certificate signed
// by it, and a second CA that signed nothing (the "wrong CA").
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /** Files (what the …_FILE settings point at). */
  caFile: string;
  wrongCaFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** PEM texts. */
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

function authority(dir: string, name: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.pem`]);
}

function signed(dir: string, name: string, ca: string, san: string | null): void {
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`]);
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(extensions, san ? `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n` : 'extendedKeyUsage=clientAuth\n');
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-extfile', extensions, '-out', `${name}.pem`]);
}

/** Writes the certificates into `dir` (~0.3 s: four RSA keys). Keys are unencrypted PKCS#8, as Kafka's PEM key store wants them. */
export function makeTestCertificates(dir: string): TestCertificates {
  authority(dir, 'ca');
  authority(dir, 'wrong-ca');
  signed(dir, 'server', 'ca', 'IP:127.0.0.1,DNS:localhost');
  signed(dir, 'client', 'ca', null);
  const file = (name: string) => join(dir, name);
  return {
    dir,
    caFile: file('ca.pem'),
    wrongCaFile: file('wrong-ca.pem'),
    serverCertFile: file('server.pem'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.pem'),
    clientKeyFile: file('client.key'),
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    serverCertPem: readFileSync(file('server.pem'), 'utf8'),
    serverKeyPem: readFileSync(file('server.key'), 'utf8'),
  };
}
