/**
 * @module A read of this package as its tests name it: its form (`jsonl` text, `validated-lines`, `records`),
 * its provenance as `segment:count` (read through this package's own provenance kind), and its text,
 * lines or records — plain data, so two reads compare with `toEqual`.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { JsonlTextLog, RecordsLog, ValidatedLinesLog, type StoredRead } from 'dsh-session/internal';
import { segmentOriginOf } from '../segment-provenance.js';

export type ReadShape = { source?: string } & (
  | { kind: 'jsonl'; text: string }
  | { kind: 'validated-lines'; header: SessionHeader; lines: readonly string[]; count: number }
  | { kind: 'records'; header: SessionHeader; events: readonly SessionEvent[]; validated?: true }
);

/** The shape of `read` (undefined for none). */
export function shapeOf(read: StoredRead | undefined): ReadShape | undefined {
  if (read === undefined) return undefined;
  const origin = segmentOriginOf(read.provenance);
  const source = origin !== undefined && 'segment' in origin ? { source: `${origin.segment}:${String(origin.count)}` } : {};
  const { log } = read;
  if (log instanceof ValidatedLinesLog)
    return { kind: 'validated-lines', header: log.header, lines: log.lines, count: log.count, ...source };
  if (log instanceof RecordsLog)
    return { kind: 'records', header: log.header, events: log.events, ...(log.validated ? { validated: true } : {}), ...source };
  if (log instanceof JsonlTextLog) return { kind: 'jsonl', text: log.text, ...source };
  throw new Error('a read of dsh-postgres is JSONL text, validated lines or records');
}
