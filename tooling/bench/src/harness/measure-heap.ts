/** `globalThis.gc` when node runs with `--expose-gc`. */
function collector(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}

/** Whether heap growth can be measured (node started with `--expose-gc`). */
export function canMeasureHeap(): boolean {
  return collector() !== undefined;
}

/**
 * Bytes of heap still in use after `fn` that were not before, with full collections on both sides;
 * what `fn` returns is kept alive until after the second measurement. Requires `--expose-gc`.
 */
export async function heapGrowth<T>(fn: () => Promise<T>): Promise<{ bytes: number; value: T }> {
  const gc = collector();
  if (!gc) throw new Error('heapGrowth: run node with --expose-gc');
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const value = await fn();
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  return { bytes: after - before, value };
}
