// Free TCP ports on 127.0.0.1, picked by asking the kernel for ephemeral ports.
import { createServer, type Server } from 'node:net';

function listenEphemeral(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve(srv));
  });
}

/** `n` distinct free ports (all held open at once, so none repeats), released before returning. */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, listenEphemeral));
  const ports = servers.map((s) => {
    const addr = s.address();
    if (typeof addr !== 'object' || !addr) throw new Error('no port assigned');
    return addr.port;
  });
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  return ports;
}
