import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A service account made for one test: its key file on disk and the public key that checks its signatures. */
export interface TestServiceAccount {
  readonly clientEmail: string;
  readonly keyFile: string;
  readonly publicKey: KeyObject;
  readonly privateKeyId: string;
}

/**
 * A fresh RSA key pair and a key file in the shape Google issues (the fields of a real
 * `service_account` JSON key), naming `tokenUri` as its token endpoint.
 */
export function createTestServiceAccount(tokenUri: string, project = 'test-project'): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `switchyard-test@${project}.iam.gserviceaccount.com`;
  const privateKeyId = 'test-key-1';
  const keyFile = join(mkdtempSync(join(tmpdir(), 'vertex-sa-')), 'service-account.json');
  writeFileSync(keyFile, JSON.stringify({
    type: 'service_account',
    project_id: project,
    private_key_id: privateKeyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    universe_domain: 'googleapis.com',
  }));
  return { clientEmail, keyFile, publicKey, privateKeyId };
}
