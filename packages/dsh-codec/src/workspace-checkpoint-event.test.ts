/**
 * V6's stance on `workspace/checkpoint` (SPEC §23), made explicit: it is an ignorable event, held to the
 * envelope rules only. Its data — `after: "turn-start" | "call"` from the agent loop, `"restore"` from
 * `dsh restore`'s undo checkpoint, `host` and `storeDir` since the PostgreSQL refusal — is the
 * writers' and `workspaceAt`'s business, so adding a field or an `after` value never needs a version.
 */
import { describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, validate, type FormatVersion, type JsonValue } from 'dsh-codec';
import { CodecLog, completedTurn, rootHeader } from './__fixtures__/build-log.js';

const header = rootHeader();

/** The issues of V6 and of the current version (the same stance) for a log holding this checkpoint. */
function withCheckpoint(data: JsonValue, ignorable: boolean): ReturnType<typeof validate> {
  const log = completedTurn(new CodecLog(), 1).add('workspace/checkpoint', data, ignorable ? { ignorable: true } : {});
  const versions = new Set<FormatVersion>([6, CURRENT_FORMAT_VERSION]);
  return [...versions].flatMap((version) => validate(version, { header: { ...header, version }, events: log.events }));
}

describe('V6 and workspace/checkpoint', () => {
  it('accepts every after value and field the writers use, as an ignorable event', () => {
    const tree = 'a'.repeat(40);
    for (const data of [
      { tree, after: 'turn-start', ms: 3 },
      {
        tree,
        after: 'call',
        callId: 'c1',
        skipped: [{ path: 'big.bin', reason: 'too-large' }],
        ms: 4,
        host: 'h',
        storeDir: '/d/.workspaces.git',
      },
      { tree, after: 'restore', ms: 5, host: 'h', storeDir: '/d/.workspaces.git' },
    ])
      expect(withCheckpoint(data, true)).toEqual([]);
  });

  it('refuses one not marked ignorable: it is no core event', () => {
    const issues = withCheckpoint({ tree: 'a'.repeat(40), after: 'restore', ms: 5 }, false);
    expect(issues.map((issue) => issue.code)).toContain('INVALID_EVENT');
  });
});
