// This thread's CPU time in ms, for the timings line (run.ts) and the launcher's load lap
// (codeCache.ts); the whole process's on a Node.js without threadCpuUsage (added in 23.9).
// Dependency-free: the launcher imports it before the Node.js version is checked.
export function cpuMs(): number {
  const used = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (used.user + used.system) / 1000;
}
