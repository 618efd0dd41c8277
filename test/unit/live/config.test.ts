import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClusterError, UsageError } from '../../../src/errors.js';
import { loadConfig } from '../../../src/sources/live/config.js';
import { options } from './fake-apiserver.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'why-pending-kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Entry {
  name: string;
  [key: string]: unknown;
}

function kubeconfig(file: string, doc: { clusters?: Entry[]; users?: Entry[]; contexts?: Entry[]; current?: string }): string {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  const body = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: (doc.clusters ?? []).map(({ name, ...cluster }) => ({ name, cluster })),
    users: (doc.users ?? []).map(({ name, ...user }) => ({ name, user })),
    contexts: (doc.contexts ?? []).map(({ name, ...context }) => ({ name, context })),
    ...(doc.current ? { 'current-context': doc.current } : {}),
  };
  writeFileSync(full, JSON.stringify(body));
  return full;
}

function twoFiles(): { first: string; second: string } {
  const first = kubeconfig('first.yaml', {
    clusters: [{ name: 'shared', server: 'https://first.example:6443' }],
    users: [{ name: 'shared', token: 'first-token' }],
    contexts: [{ name: 'shared', cluster: 'shared', user: 'shared', namespace: 'from-first' }],
    current: 'shared',
  });
  const second = kubeconfig('second.yaml', {
    clusters: [
      { name: 'shared', server: 'https://second.example:6443' },
      { name: 'only-second', server: 'https://only-second.example' },
    ],
    users: [
      { name: 'shared', token: 'second-token' },
      { name: 'only-second', token: 'other' },
    ],
    contexts: [
      { name: 'shared', cluster: 'shared', user: 'shared', namespace: 'from-second' },
      { name: 'only-second', cluster: 'only-second', user: 'only-second' },
    ],
    current: 'only-second',
  });
  return { first, second };
}

describe('KUBECONFIG merging, as kubectl merges', () => {
  it('the first file wins each name and the current-context', () => {
    const { first, second } = twoFiles();
    const config = loadConfig(options(), { KUBECONFIG: `${first}${path.delimiter}${second}` });
    expect(config.kubeConfig.getCurrentContext()).toBe('shared');
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe('https://first.example:6443');
    expect(config.kubeConfig.getCurrentUser()?.token).toBe('first-token');
    expect(config.namespace).toBe('from-first');
    expect(config.describe).toBe('context "shared" (server https://first.example:6443, user "shared")');
  });

  it('names only a later file defines are still there', () => {
    const { first, second } = twoFiles();
    const config = loadConfig(options({ context: 'only-second' }), { KUBECONFIG: `${first}${path.delimiter}${second}` });
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe('https://only-second.example');
    expect(config.namespace).toBe('default');
  });

  it('a missing file is skipped', () => {
    const { second } = twoFiles();
    const config = loadConfig(options(), { KUBECONFIG: `${path.join(dir, 'missing.yaml')}${path.delimiter}${second}` });
    expect(config.kubeConfig.getCurrentContext()).toBe('only-second');
  });

  it('empty entries and repeats in KUBECONFIG are ignored', () => {
    const { first } = twoFiles();
    const config = loadConfig(options(), { KUBECONFIG: `${path.delimiter}${first}${path.delimiter}${first}` });
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe('https://first.example:6443');
  });

  it('--kubeconfig replaces KUBECONFIG', () => {
    const { first, second } = twoFiles();
    const config = loadConfig(options({ kubeconfig: second }), { KUBECONFIG: first });
    expect(config.kubeConfig.getCurrentContext()).toBe('only-second');
  });

  it('falls back to ~/.kube/config', () => {
    kubeconfig('home/.kube/config', { clusters: [{ name: 'c', server: 'https://home.example' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], users: [{ name: 'u' }], current: 'x' });
    const config = loadConfig(options(), { HOME: path.join(dir, 'home') });
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe('https://home.example');
  });

  it('relative paths resolve against the directory of the file that holds them', () => {
    writeFileSync(path.join(dir, 'sub-token'), 'token-from-file\n');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'sub', 'token'), 'token-from-file\n');
    const file = kubeconfig('sub/config', {
      clusters: [{ name: 'c', server: 'https://x.example', 'certificate-authority': 'ca.crt' }],
      users: [{ name: 'u', 'token-file': 'token', exec: { command: './bin/login', apiVersion: 'client.authentication.k8s.io/v1' } }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      current: 'x',
    });
    const config = loadConfig(options(), { KUBECONFIG: file });
    expect(config.kubeConfig.getCurrentCluster()?.caFile).toBe(path.join(dir, 'sub', 'ca.crt'));
    expect(config.kubeConfig.getCurrentUser()?.token).toBe('token-from-file');
    expect((config.kubeConfig.getCurrentUser()?.exec as { command: string }).command).toBe(path.join(dir, 'sub', 'bin', 'login'));
  });
});

describe('no usable kubeconfig', () => {
  it('no kubeconfig at all is an error, never localhost:8080', () => {
    expect(() => loadConfig(options(), {})).toThrow(ClusterError);
    expect(() => loadConfig(options(), {})).toThrow('no kubeconfig found: set KUBECONFIG or pass --kubeconfig; why-pending never falls back to localhost:8080');
    expect(() => loadConfig(options(), { HOME: dir })).toThrow('never falls back to localhost:8080');
  });

  it('KUBECONFIG naming only missing files says so', () => {
    expect(() => loadConfig(options(), { KUBECONFIG: path.join(dir, 'a.yaml') })).toThrow(/none of the KUBECONFIG files exists: .*a\.yaml/);
  });

  it('a missing --kubeconfig file is an error', () => {
    expect(() => loadConfig(options({ kubeconfig: path.join(dir, 'nope') }), {})).toThrow(/reading kubeconfig .*nope: no such file/);
  });

  it('a file that is not YAML names itself', () => {
    writeFileSync(path.join(dir, 'bad'), 'clusters: [unclosed');
    expect(() => loadConfig(options({ kubeconfig: path.join(dir, 'bad') }), {})).toThrow(/reading kubeconfig .*bad: not valid YAML/);
  });

  it('no current-context asks for --context', () => {
    const file = kubeconfig('c.yaml', { clusters: [{ name: 'c', server: 'https://x' }], contexts: [{ name: 'a', cluster: 'c', user: 'u' }] });
    expect(() => loadConfig(options({ kubeconfig: file }), {})).toThrow(/sets no current-context: pass --context NAME \("a"\)/);
  });

  it('an unknown --context lists the known ones', () => {
    const { first } = twoFiles();
    expect(() => loadConfig(options({ context: 'nope' }), { KUBECONFIG: first })).toThrow('context "nope" not found in kubeconfig');
    expect(() => loadConfig(options({ context: 'nope' }), { KUBECONFIG: first })).toThrow('it has "shared"');
  });

  it('--server alone needs no kubeconfig', () => {
    const config = loadConfig(options({ server: 'https://10.0.0.1:6443', token: 't' }), {});
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe('https://10.0.0.1:6443');
    expect(config.namespace).toBe('default');
  });
});

describe('flag overrides', () => {
  function base(): string {
    return kubeconfig('base.yaml', {
      clusters: [
        { name: 'prod', server: 'https://prod.example', 'certificate-authority-data': 'Q0E=', 'tls-server-name': 'api.prod' },
        { name: 'staging', server: 'https://staging.example' },
      ],
      users: [
        { name: 'alice', exec: { command: 'login-helper', apiVersion: 'client.authentication.k8s.io/v1' }, 'client-certificate-data': 'Q0VSVA==' },
        { name: 'bob', token: 'bob-token', as: 'carol', 'as-groups': ['team'] },
      ],
      contexts: [{ name: 'prod', cluster: 'prod', user: 'alice', namespace: 'shop' }],
      current: 'prod',
    });
  }

  it.each([
    { name: '--cluster picks another cluster', flags: { cluster: 'staging' }, server: 'https://staging.example', ns: 'shop' },
    { name: '--server replaces the address', flags: { server: 'https://other:443' }, server: 'https://other:443', ns: 'shop' },
    { name: '-n wins over the context namespace', flags: { namespace: 'web' }, server: 'https://prod.example', ns: 'web' },
  ])('$name', ({ flags, server, ns }) => {
    const config = loadConfig(options({ kubeconfig: base(), ...flags }), {});
    expect(config.kubeConfig.getCurrentCluster()?.server).toBe(server);
    expect(config.namespace).toBe(ns);
  });

  it('--server forgets the kubeconfig tls-server-name; --tls-server-name sets it', () => {
    expect(loadConfig(options({ kubeconfig: base() }), {}).kubeConfig.getCurrentCluster()?.tlsServerName).toBe('api.prod');
    expect(loadConfig(options({ kubeconfig: base(), server: 'https://x' }), {}).kubeConfig.getCurrentCluster()?.tlsServerName).toBeUndefined();
    expect(loadConfig(options({ kubeconfig: base(), tlsServerName: 'api.other' }), {}).kubeConfig.getCurrentCluster()?.tlsServerName).toBe('api.other');
  });

  it('--insecure-skip-tls-verify drops the CA; --certificate-authority replaces it', () => {
    const insecure = loadConfig(options({ kubeconfig: base(), insecureSkipTlsVerify: true }), {}).kubeConfig.getCurrentCluster();
    expect(insecure?.skipTLSVerify).toBe(true);
    expect(insecure?.caData).toBeUndefined();
    const ca = loadConfig(options({ kubeconfig: base(), certificateAuthority: path.join(dir, 'ca.pem') }), {}).kubeConfig.getCurrentCluster();
    expect(ca?.caFile).toBe(path.join(dir, 'ca.pem'));
    expect(ca?.caData).toBeUndefined();
  });

  it('--token replaces the exec plugin but keeps the client certificate', () => {
    const user = loadConfig(options({ kubeconfig: base(), token: 'flag-token' }), {}).kubeConfig.getCurrentUser();
    expect(user?.token).toBe('flag-token');
    expect(user?.exec).toBeUndefined();
    expect(user?.certData).toBe('Q0VSVA==');
  });

  it('--user picks another user, with its impersonation', () => {
    const config = loadConfig(options({ kubeconfig: base(), user: 'bob' }), {});
    expect(config.kubeConfig.getCurrentUser()?.token).toBe('bob-token');
    expect(config.impersonate).toEqual({ user: 'carol', groups: ['team'] });
  });

  it('--as and --as-group win over the kubeconfig', () => {
    const config = loadConfig(options({ kubeconfig: base(), user: 'bob', as: 'dave', asGroups: ['ops', 'dev'] }), {});
    expect(config.impersonate).toEqual({ user: 'dave', groups: ['ops', 'dev'] });
    expect(config.describe).toContain('as "dave" (groups ops, dev)');
  });

  it('--as-group without a user to impersonate is a usage error', () => {
    expect(() => loadConfig(options({ kubeconfig: base(), asGroups: ['ops'] }), {})).toThrow(UsageError);
  });

  it('unknown --cluster and --user are errors', () => {
    expect(() => loadConfig(options({ kubeconfig: base(), cluster: 'nope' }), {})).toThrow('cluster "nope" not found');
    expect(() => loadConfig(options({ kubeconfig: base(), user: 'nope' }), {})).toThrow('user "nope" not found');
  });

  it('the description never shows a token or a password', () => {
    const config = loadConfig(options({ kubeconfig: base(), user: 'bob', server: 'https://admin:hunter2@prod.example', token: 'flag-token' }), {});
    expect(config.describe).not.toMatch(/bob-token|flag-token|hunter2/);
    expect(config.server).toBe('https://prod.example');
  });

  it('HTTPS_PROXY and NO_PROXY are carried for the transport', () => {
    const config = loadConfig(options({ kubeconfig: base() }), { HTTPS_PROXY: 'http://proxy:3128', no_proxy: '.internal', PATH: '/bin' });
    expect(config.proxyEnv).toEqual({ HTTPS_PROXY: 'http://proxy:3128', no_proxy: '.internal' });
  });
});
