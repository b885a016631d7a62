/**
 * Run `work` over items with at most `concurrency` in flight, in the given order. Stops scheduling new
 * items once `signal` aborts; items already started finish (so their observations are kept).
 * Returns how many items were started.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  let next = 0;
  const lanes = Math.max(1, Math.min(concurrency, items.length));
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return next;
}
