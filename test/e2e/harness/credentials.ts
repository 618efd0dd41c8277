// Service-account signing keys, the static token file, a client CA with client certificates
// (made with the openssl CLI) and kubeconfigs.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface UserSpec {
  name: string;
  /** Defaults to a random token. */
  token?: string;
  groups?: string[];
  /**
   * 'certificate': authenticates with a client certificate (CN = name, O = each group) signed
   * by the harness's client CA (--client-ca-file) instead of a token.
   */
  auth?: 'token' | 'certificate';
}

export interface User {
  name: string;
  groups: string[];
  /** Token users. */
  token?: string;
  /** Certificate users: PEM files. */
  certFile?: string;
  keyFile?: string;
}

const ADMIN_USER = 'why-pending-admin';

export interface Credentials {
  saKeyFile: string;
  saPubFile: string;
  tokenFile: string;
  /** The CA that signs client certificates (for --client-ca-file). */
  clientCaFile: string;
  admin: User & { token: string };
  users: Map<string, User>;
}

function csvField(s: string): string {
  return /[",\s]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`openssl ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, { cause: e });
  }
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A self-signed CA for client certificates: ca.crt, ca.key in `dir`. */
function writeClientCa(dir: string): { caFile: string; caKeyFile: string } {
  const caFile = join(dir, 'client-ca.crt');
  const caKeyFile = join(dir, 'client-ca.key');
  openssl(['req', '-x509', ...EC_KEY, '-keyout', caKeyFile, '-out', caFile, '-days', '2', '-subj', '/CN=why-pending-test-client-ca']);
  return { caFile, caKeyFile };
}

/** A client certificate for `name` (CN) in `groups` (O), signed by the client CA. */
function writeClientCert(dir: string, ca: { caFile: string; caKeyFile: string }, name: string, groups: string[]): { certFile: string; keyFile: string } {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  const keyFile = join(dir, `${safe}.key`);
  const csrFile = join(dir, `${safe}.csr`);
  const certFile = join(dir, `${safe}.crt`);
  const extFile = join(dir, `${safe}.ext`);
  const esc = (s: string) => s.replace(/[/=+\\]/g, (c) => `\\${c}`);
  const subject = [...groups.map((g) => `/O=${esc(g)}`), `/CN=${esc(name)}`].join('');
  openssl(['req', '-new', ...EC_KEY, '-keyout', keyFile, '-out', csrFile, '-subj', subject]);
  writeFileSync(extFile, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  openssl(['x509', '-req', '-in', csrFile, '-CA', ca.caFile, '-CAkey', ca.caKeyFile, '-CAcreateserial', '-out', certFile, '-days', '2', '-extfile', extFile]);
  return { certFile, keyFile };
}

/**
 * Writes sa.key/sa.pub (RSA 2048), tokens.csv for the admin plus the `extra` token users, and
 * a client CA with a certificate for each `extra` certificate user.
 */
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

  const admin = { name: ADMIN_USER, token: randomBytes(24).toString('hex'), groups: ['system:masters'] };
  const users = new Map<string, User>([[admin.name, admin]]);
  const ca = writeClientCa(dir);
  for (const u of extra) {
    if (users.has(u.name)) throw new Error(`duplicate user ${u.name}`);
    const groups = u.groups ?? [];
    if (u.auth === 'certificate') {
      users.set(u.name, { name: u.name, groups, ...writeClientCert(dir, ca, u.name, groups) });
    } else {
      users.set(u.name, { name: u.name, token: u.token ?? randomBytes(24).toString('hex'), groups });
    }
  }
  // token,user,uid,"group1,group2"
  const lines = [...users.values()].flatMap((u) =>
    u.token ? [[u.token, u.name, u.name].map(csvField).concat(u.groups.length ? [csvField(u.groups.join(','))] : []).join(',')] : [],
  );
  const tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, lines.join('\n') + '\n', { mode: 0o600 });
  return { saKeyFile, saPubFile, tokenFile, clientCaFile: ca.caFile, admin, users };
}

/** A kubeconfig for one user (token or client certificate). */
export function writeKubeconfig(file: string, server: string, caFile: string, user: User): string {
  const auth = user.token
    ? { token: user.token }
    : { 'client-certificate': user.certFile, 'client-key': user.keyFile };
  const cfg = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'why-pending-test', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: user.name, user: auth }],
    contexts: [{ name: user.name, context: { cluster: 'why-pending-test', user: user.name, namespace: 'default' } }],
    'current-context': user.name,
  };
  writeFileSync(file, stringify(cfg), { mode: 0o600 });
  return file;
}
