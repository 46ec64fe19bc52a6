/**
 * The header a migration step writes when only the version changes (V2→V3, V3→V4, V4→V5):
 * the lineage fields kept, rebuilt in the documented key order so a migrated header encodes
 * like a written one.
 */

/** The header fields every version since V2 has. */
export type LineageHeaderFields = {
  id: string;
  createdAt: number;
  cwd?: string | undefined;
  parentSession?: string | undefined;
  forkCut?: number | undefined;
  inheritedEventCount: number;
};

/** `header`'s lineage as a header of `version` (a new object; absent optional fields stay absent). */
export function headerAtVersion<Version extends number>(
  header: LineageHeaderFields,
  version: Version,
): {
  format: 'dsh-session';
  version: Version;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
} {
  const { id, createdAt, cwd, parentSession, forkCut, inheritedEventCount } = header;
  return {
    format: 'dsh-session',
    version,
    id,
    createdAt,
    ...(cwd === undefined ? {} : { cwd }),
    ...(parentSession === undefined ? {} : { parentSession }),
    ...(forkCut === undefined ? {} : { forkCut }),
    inheritedEventCount,
  };
}
