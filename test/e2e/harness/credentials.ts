// Service-account signing keys, the static token file and kubeconfigs.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface UserSpec {
  name: string;
  /** Defaults to a random token. */
  token?: string;
  groups?: string[];
}

export interface User {
  name: string;
  token: string;
  groups: string[];
}

export const ADMIN_USER = 'why-pending-admin';

export interface Credentials {
  saKeyFile: string;
  saPubFile: string;
  tokenFile: string;
  admin: User;
  users: Map<string, User>;
}

function csvField(s: string): string {
  return /[",\s]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes sa.key/sa.pub (RSA 2048) and tokens.csv for the admin plus `extra` users. */
export function writeCredentials(dir: string, extra: UserSpec[] = []): Credentials {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const saKeyFile = join(dir, 'sa.key');
  const saPubFile = join(dir, 'sa.pub');
  writeFileSync(saKeyFile, privateKey, { mode: 0o600 });
  writeFileSync(saPubFile, publicKey);

  const admin: User = { name: ADMIN_USER, token: randomBytes(24).toString('hex'), groups: ['system:masters'] };
  const users = new Map<string, User>([[admin.name, admin]]);
  for (const u of extra) {
    if (users.has(u.name)) throw new Error(`duplicate user ${u.name}`);
    users.set(u.name, { name: u.name, token: u.token ?? randomBytes(24).toString('hex'), groups: u.groups ?? [] });
  }
  // token,user,uid,"group1,group2"
  const lines = [...users.values()].map((u) =>
    [u.token, u.name, u.name].map(csvField).concat(u.groups.length ? [csvField(u.groups.join(','))] : []).join(','),
  );
  const tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, lines.join('\n') + '\n', { mode: 0o600 });
  return { saKeyFile, saPubFile, tokenFile, admin, users };
}

/** A kubeconfig for one token user. */
export function writeKubeconfig(file: string, server: string, caFile: string, user: User): string {
  const cfg = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'why-pending-test', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: user.name, user: { token: user.token } }],
    contexts: [{ name: user.name, context: { cluster: 'why-pending-test', user: user.name, namespace: 'default' } }],
    'current-context': user.name,
  };
  writeFileSync(file, stringify(cfg), { mode: 0o600 });
  return file;
}
