import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { addLiveOptions, liveOptionsFrom, parseRequestTimeout } from '../../../src/sources/live/flags.js';

function parse(...args: string[]) {
  const program = new Command('kubectl why-pending').argument('<name>').option('-n, --namespace <namespace>').exitOverride().configureOutput({ writeErr: () => undefined });
  addLiveOptions(program);
  program.parse(['node', 'why-pending', ...args]);
  return liveOptionsFrom(program.opts());
}

describe('kubectl connection flags', () => {
  it('reads every flag', () => {
    const live = parse(
      'web-0',
      '-n', 'shop',
      '--kubeconfig', '/tmp/kc',
      '--context', 'prod',
      '--cluster', 'c',
      '--user', 'u',
      '--request-timeout', '30s',
      '--as', 'alice',
      '--as-group', 'ops',
      '--as-group', 'dev',
      '--insecure-skip-tls-verify',
      '--tls-server-name', 'api.internal',
      '-s', 'https://1.2.3.4:6443',
      '--token', 'abc',
      '--certificate-authority', '/tmp/ca',
    );
    expect(live).toEqual({
      namespace: 'shop',
      kubeconfig: '/tmp/kc',
      context: 'prod',
      cluster: 'c',
      user: 'u',
      requestTimeoutMs: 30_000,
      as: 'alice',
      asGroups: ['ops', 'dev'],
      insecureSkipTlsVerify: true,
      tlsServerName: 'api.internal',
      server: 'https://1.2.3.4:6443',
      token: 'abc',
      certificateAuthority: '/tmp/ca',
    });
  });

  it('defaults: no timeout, no groups, verification on', () => {
    expect(parse('web-0')).toEqual({ requestTimeoutMs: 0, asGroups: [], insecureSkipTlsVerify: false });
  });

  it('--server has the long form too', () => {
    expect(parse('web-0', '--server=https://x').server).toBe('https://x');
  });

  it('a bad --request-timeout is a usage error from the parser', () => {
    expect(() => parse('web-0', '--request-timeout', '5 minutes')).toThrow(CommanderError);
  });
});

describe('--request-timeout as kubectl reads it', () => {
  it.each([
    { text: '0', ms: 0 },
    { text: '0s', ms: 0 },
    { text: '5', ms: 5000 },
    { text: '30s', ms: 30_000 },
    { text: '1m', ms: 60_000 },
    { text: '1m30s', ms: 90_000 },
    { text: '1.5h', ms: 5_400_000 },
    { text: '250ms', ms: 250 },
  ])('$text is $ms ms', ({ text, ms }) => {
    expect(parseRequestTimeout(text)).toBe(ms);
  });

  it.each(['', 'soon', '-1s', '10x', '1m 30s'])('"%s" is refused', (text) => {
    expect(() => parseRequestTimeout(text)).toThrow(/whole number of seconds/);
  });
});
