// Bad input never ends in a stack trace: one line on stderr, a documented exit code.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run.js';

const example = path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml');
const scratch = mkdtempSync(path.join(tmpdir(), 'why-pending-cli-'));

function file(name: string, text: string): string {
  const full = path.join(scratch, name);
  writeFileSync(full, text);
  return full;
}

const podWithoutKind = `apiVersion: v1
metadata: {name: web-0, namespace: shop}
spec: {containers: [{name: app, image: app}]}
`;

const badQuantity = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", memory: "lots", pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-0, namespace: shop}
  spec: {containers: [{name: app, image: app, resources: {requests: {cpu: "1"}}}]}
  status: {phase: Pending}
`;

const cases: { name: string; args: () => string[]; input?: string; code: number; stderr: RegExp }[] = [
  { name: 'an unknown flag is a usage error', args: () => ['web-0', '--frobnicate'], code: 2, stderr: /unknown option '--frobnicate'/ },
  { name: 'a pod name with -A is a usage error', args: () => ['web-0', '-A', '--from-dump', example], code: 2, stderr: /-A\/--all-namespaces picks pods without a name/ },
  { name: 'a pod name with -l is a usage error', args: () => ['web-0', '-l', 'app=web', '--from-dump', example], code: 2, stderr: /-l\/--selector picks pods without a name/ },
  { name: '-A with -n is a usage error', args: () => ['-A', '-n', 'shop', '--from-dump', example], code: 2, stderr: /-A\/--all-namespaces and -n\/--namespace together/ },
  { name: 'a selector that does not parse is a usage error', args: () => ['-l', 'app=(web', '--from-dump', example], code: 2, stderr: /-l\/--selector "app=\(web": cannot read/ },
  { name: 'an unknown output format is a usage error', args: () => ['web-0', '-o', 'xml', '--from-dump', example], code: 2, stderr: /argument 'xml' is invalid/ },
  { name: 'an unknown owner kind is a usage error', args: () => ['svc/web', '--from-dump', example], code: 2, stderr: /unknown resource type "svc"/ },
  { name: 'a missing dump file is unreadable input', args: () => ['web-0', '--from-dump', path.join(scratch, 'nope.yaml')], code: 3, stderr: /nope\.yaml: no such file or directory/ },
  { name: 'malformed YAML names the file and the line', args: () => ['web-0', '--from-dump', file('bad.yaml', 'kind: List\nitems:\n  - [unclosed\n')], code: 3, stderr: /bad\.yaml: line \d+, column \d+: not valid YAML/ },
  { name: 'malformed JSON names the file and the line', args: () => ['web-0', '--from-dump', file('bad.json', '{"kind": "List",\n "items": [}\n')], code: 3, stderr: /bad\.json: line 2, column \d+/ },
  { name: 'an object without kind names the file', args: () => ['web-0', '--from-dump', file('nokind.yaml', podWithoutKind)], code: 3, stderr: /nokind\.yaml: object "web-0" has no kind/ },
  { name: 'a quantity that does not parse names the object', args: () => ['web-0', '-n', 'shop', '--from-dump', file('qty.yaml', badQuantity)], code: 3, stderr: /node n1 status\.allocatable: quantity "lots" is not valid/ },
  { name: 'an empty stdin is unreadable input', args: () => ['web-0', '--from-dump', '-'], input: '', code: 3, stderr: /holds no Kubernetes objects/ },
  { name: 'a pod that does not exist is not found, with suggestions', args: () => ['web-9', '-n', 'shop', '--from-dump', example], code: 4, stderr: /pod "web-9" not found in namespace "shop".*did you mean web-0/ },
  { name: 'a pod in another namespace is not found, with the namespace to add', args: () => ['web-0', '-n', 'default', '--from-dump', example], code: 4, stderr: /pod "web-0" not found in namespace "default" \(.*\); it exists in namespace "shop": add -n shop$/m },
];

describe('command-line errors', () => {
  it.each(cases)('$name', ({ args, input, code, stderr }) => {
    const run = runCli(args(), input !== undefined ? { input } : {});
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(stderr);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});
