/** Min, median and max of a set of repeated measurements. */
export interface Summary {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly count: number;
}

/** Summarizes samples (at least one, all finite); the median of an even count is the mean of the middle two. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError('summarize: expected at least one sample, received none');
  for (const sample of samples) {
    if (!Number.isFinite(sample)) throw new RangeError(`summarize: expected finite samples, received ${String(sample)}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    min: at(sorted, 0),
    median: percentile(sorted, 0.5),
    max: at(sorted, sorted.length - 1),
    count: sorted.length,
  };
}

/** The `p`-quantile (0..1) of ascending `sorted` samples, interpolating linearly between ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile: expected at least one sample, received none');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile: expected p in [0, 1], received ${p}`);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return at(sorted, low) + (at(sorted, high) - at(sorted, low)) * (rank - low);
}

function at(values: readonly number[], index: number): number {
  const value = values[index];
  if (value === undefined) throw new RangeError(`index ${index} outside ${values.length} samples`);
  return value;
}
