/** A seeded pseudo-random source, so every run generates byte-identical logs. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** An index chosen with the given relative weights. */
  weighted(weights: readonly number[]): number;
}

/** mulberry32: tiny, fast, good enough for test data (not for anything secret). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new RangeError('pick: expected a non-empty list');
      return item;
    },
    weighted(weights: readonly number[]): number {
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      let roll = next() * total;
      for (const [index, weight] of weights.entries()) {
        roll -= weight;
        if (roll < 0) return index;
      }
      return weights.length - 1;
    },
  };
}
