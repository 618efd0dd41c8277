import { describe, expect, it } from 'vitest';
import { chooseProxy, noProxyMatches } from '../../../src/sources/live/proxy.js';

describe('NO_PROXY as Go (and so kubectl) reads it', () => {
  it.each([
    { noProxy: '*', host: 'api.example.com', port: '443', bypass: true },
    { noProxy: 'example.com', host: 'example.com', port: '443', bypass: true },
    { noProxy: 'example.com', host: 'api.example.com', port: '443', bypass: true },
    { noProxy: '.example.com', host: 'example.com', port: '443', bypass: false },
    { noProxy: '.example.com', host: 'api.example.com', port: '443', bypass: true },
    { noProxy: '*.example.com', host: 'api.example.com', port: '443', bypass: true },
    { noProxy: 'example.com', host: 'notexample.com', port: '443', bypass: false },
    { noProxy: 'example.com:6443', host: 'api.example.com', port: '443', bypass: false },
    { noProxy: 'example.com:6443', host: 'api.example.com', port: '6443', bypass: true },
    { noProxy: '10.0.0.0/8', host: '10.1.2.3', port: '6443', bypass: true },
    { noProxy: '10.0.0.0/8', host: '11.1.2.3', port: '6443', bypass: false },
    { noProxy: '10.1.2.3', host: '10.1.2.3', port: '6443', bypass: true },
    { noProxy: 'a.com, b.com ,', host: 'x.b.com', port: '443', bypass: true },
    { noProxy: '[::1]:6443', host: '[::1]', port: '6443', bypass: true },
    { noProxy: 'fd00::/8', host: 'fd00::1', port: '443', bypass: true },
  ])('NO_PROXY=$noProxy, $host:$port: bypass $bypass', ({ noProxy, host, port, bypass }) => {
    expect(noProxyMatches(noProxy, host, port)).toBe(bypass);
  });
});

describe('choosing a proxy', () => {
  const https = new URL('https://api.example.com:6443');
  it('proxy-url from the kubeconfig wins over the environment and NO_PROXY', () => {
    expect(chooseProxy(https, 'http://kc-proxy:8080', { HTTPS_PROXY: 'http://env:3128', NO_PROXY: '*' })).toMatchObject({ from: 'proxy-url', url: new URL('http://kc-proxy:8080') });
  });
  it('https servers use HTTPS_PROXY (uppercase first), never HTTP_PROXY', () => {
    expect(chooseProxy(https, undefined, { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' })?.url.host).toBe('upper:1');
    expect(chooseProxy(https, undefined, { https_proxy: 'lower:2' })?.url.href).toBe('http://lower:2/');
    expect(chooseProxy(https, undefined, { HTTP_PROXY: 'http://plain:3' })).toBeUndefined();
  });
  it('http servers use HTTP_PROXY', () => {
    expect(chooseProxy(new URL('http://api.example.com'), undefined, { HTTP_PROXY: 'http://plain:3', HTTPS_PROXY: 'http://tls:4' })?.url.host).toBe('plain:3');
  });
  it('NO_PROXY exempts a server', () => {
    expect(chooseProxy(https, undefined, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.com' })).toBeUndefined();
  });
  it('loopback servers never use a proxy from the environment', () => {
    expect(chooseProxy(new URL('https://127.0.0.1:6443'), undefined, { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(chooseProxy(new URL('https://localhost:6443'), undefined, { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(chooseProxy(new URL('https://[::1]:6443'), undefined, { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
  });
});
