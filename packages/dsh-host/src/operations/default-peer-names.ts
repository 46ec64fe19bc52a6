/** @module `defaultPeerNames`: the names peers and forks get when none is asked for (`<base>-1`, `-2`, …). */
/**
 * Names for `count` peers of a baseline called `baseName`: `<baseName>-1`, `-2`, … skipping every
 * name in `taken`, so running peers again names the new ones after the old.
 */
export function defaultPeerNames(baseName: string, taken: ReadonlySet<string>, count: number): string[] {
  const names: string[] = [];
  for (let number = 1; names.length < count; number++) {
    const name = `${baseName}-${String(number)}`;
    if (!taken.has(name)) names.push(name);
  }
  return names;
}
