/**
 * @module line-diff
 * A line diff of two texts (longest common subsequence), for `dsh peers --compare`: each line of
 * either text once, marked kept (`  `), only in the first (`- `) or only in the second (`+ `).
 */

/** One line of a diff: in both texts, only in the first (`-`), or only in the second (`+`). */
export type DiffLine = { kind: ' ' | '-' | '+'; text: string };

/** Above this many line pairs the table would be too big to hold; the texts are shown whole instead. */
const MAX_CELLS = 4_000_000;

/** The lines of `a` and `b` in order, common ones once; `undefined` when the texts are too long to diff. */
export function lineDiff(a: string, b: string): DiffLine[] | undefined {
  const left = a === '' ? [] : a.split('\n');
  const right = b === '' ? [] : b.split('\n');
  if (left.length * right.length > MAX_CELLS) return undefined;
  // common[i][j]: the longest common subsequence of left[i..] and right[j..].
  const width = right.length + 1;
  const common = new Uint32Array((left.length + 1) * width);
  for (let i = left.length - 1; i >= 0; i -= 1) {
    for (let j = right.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        left[i] === right[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      lines.push({ kind: ' ', text: left[i] as string });
      i += 1;
      j += 1;
    } else if (i < left.length && (j === right.length || (common[(i + 1) * width + j] ?? 0) >= (common[i * width + j + 1] ?? 0))) {
      // Removals before additions, as diff(1) prints a changed block.
      lines.push({ kind: '-', text: left[i] as string });
      i += 1;
    } else {
      lines.push({ kind: '+', text: right[j] as string });
      j += 1;
    }
  }
  return lines;
}
