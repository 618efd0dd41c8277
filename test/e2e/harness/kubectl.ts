// Runs kubectl against a kubeconfig (WHY_PENDING_KUBECTL overrides the binary).
import { spawn } from 'node:child_process';

export interface KubectlResult {
  stdout: string;
  stderr: string;
}

export function kubectl(kubeconfig: string, args: string[], input?: string): Promise<KubectlResult> {
  const bin = process.env.WHY_PENDING_KUBECTL ?? 'kubectl';
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [`--kubeconfig=${kubeconfig}`, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    // kubectl may exit before reading its input (a bad flag): that is its exit code's story.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      const res = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
      if (code === 0) resolve(res);
      else reject(new Error(`kubectl ${args.join(' ')} exited ${String(code)}: ${res.stderr.trim()}`));
    });
    child.stdin.end(input ?? '');
  });
}
