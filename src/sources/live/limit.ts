// Bounded concurrency: at most `size` tasks at once, the rest wait in order.
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** Runs `task` on every item with at most `size` running at once; results in input order. */
export async function mapLimited<T, R>(items: readonly T[], size: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const limiter = new Limiter(size);
  return Promise.all(items.map((item) => limiter.run(() => task(item))));
}
