// A self-signed certificate for 127.0.0.1 and localhost, made at test time with the openssl CLI
// (node has no certificate generator): the key and certificate in PEM, and the certificate's file,
// which a gateway under test trusts through UPSTREAM_CA_FILE.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate's PEM file, to trust (UPSTREAM_CA_FILE). */
  certFile: string;
  remove(): void;
}

export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-test-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=reference upstream (test)',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'pipe' },
  );
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
