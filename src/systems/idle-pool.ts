/**
 * The long-lived helpers of a system that answer one request at a time (JSON-lines worker processes,
 * module worker threads): one per concurrent request, reused while alive. A helper that died is
 * dropped when met; one that ended while in use is closed in the background and awaited at close().
 */
export interface Pooled {
  readonly alive: boolean;
  close(): Promise<void>;
}

export class IdlePool<T extends Pooled> {
  private idle: T[] = [];
  /** every helper started and not yet dropped */
  readonly all = new Set<T>();
  private closing: Promise<void>[] = [];

  /** an idle helper still alive, or undefined (the caller starts one and `add`s it) */
  take(): T | undefined {
    while (this.idle.length > 0) {
      const t = this.idle.pop() as T;
      if (t.alive) return t;
      this.all.delete(t);
    }
    return undefined;
  }

  /** a helper just started: tracked until it is dropped or the pool closes */
  add(t: T): T {
    this.all.add(t);
    return t;
  }

  /** after a request: alive, it waits for the next one; ended, it is closed */
  release(t: T): void {
    if (t.alive) this.idle.push(t);
    else this.drop(t);
  }

  /** forget a helper (closed in the background, awaited at close()) */
  drop(t: T): void {
    this.all.delete(t);
    this.closing.push(t.close());
  }

  async close(): Promise<void> {
    const all = [...this.all];
    const closing = this.closing;
    this.all.clear();
    this.idle = [];
    this.closing = [];
    await Promise.all([...all.map((t) => t.close()), ...closing]);
  }
}
