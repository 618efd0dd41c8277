// Kubeconfig (sources/live/kubeconfig.ts) gives a request what client-node's KubeConfig gave
// it, user by user: the same TLS material, headers and basic auth, compared whole.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig, type Cluster, type User } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Kubeconfig } from '../../../src/sources/live/kubeconfig.js';

const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-kubeconfig-'));
const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
const b64 = (text: string) => Buffer.from(text).toString('base64');
const tokenFile = file('token', 'token-from-auth-provider-file');

const cluster: Cluster = { name: 'c', server: 'https://k8s.example:6443', skipTLSVerify: false };

async function both(c: Cluster, user: User): Promise<[https.RequestOptions, https.RequestOptions]> {
  const options = { clusters: [c], users: [user], contexts: [{ name: 'x', cluster: c.name, user: user.name }], currentContext: 'x' };
  const theirs: https.RequestOptions = {};
  const reference = new KubeConfig();
  reference.loadFromOptions(options);
  await reference.applyToHTTPSOptions(theirs);
  delete theirs.agent; // client-node's own connection pool, which the transport does not use
  const ours: https.RequestOptions = {};
  await new Kubeconfig(options).applyToHTTPSOptions(ours);
  delete ours.agent;
  return [ours, theirs];
}

describe('Kubeconfig gives what client-node gave', () => {
  const cases: { name: string; cluster?: Partial<Cluster>; user: User }[] = [
    { name: 'a bearer token', user: { name: 'u', token: 'abc' } },
    { name: 'client certificate and key as data, CA as data', cluster: { caData: b64('CA') }, user: { name: 'u', certData: b64('CERT'), keyData: b64('KEY') } },
    { name: 'client certificate and key as files, CA as a file', cluster: { caFile: file('ca.crt', 'CA-FILE') }, user: { name: 'u', certFile: file('c.crt', 'CERT-FILE'), keyFile: file('c.key', 'KEY-FILE') } },
    { name: 'basic auth', user: { name: 'u', username: 'alice', password: 'secret' } },
    { name: 'TLS verification off and a TLS server name', cluster: { skipTLSVerify: true, tlsServerName: 'api.internal' }, user: { name: 'u', token: 't' } },
    { name: 'impersonation set on the user', user: { name: 'u', token: 't', impersonateUser: 'bob' } },
    { name: 'an auth-provider (token file): handed to client-node', user: { name: 'u', authProvider: { name: 'file', config: { tokenFile } } } },
    { name: 'no credentials', user: { name: 'u' } },
  ];
  for (const k of cases) {
    it(k.name, async () => {
      const [ours, theirs] = await both({ ...cluster, ...k.cluster }, k.user);
      expect(ours).toEqual(theirs);
    });
  }

  it('an exec plugin: the token it prints, as client-node applies it', async () => {
    const plugin = file('plugin.mjs', `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'exec-token' } }));`);
    const user: User = { name: 'u', exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin] } };
    const [ours, theirs] = await both(cluster, user);
    expect(ours).toEqual(theirs);
    expect(ours.headers).toEqual({ Authorization: 'Bearer exec-token' });
  });
});
