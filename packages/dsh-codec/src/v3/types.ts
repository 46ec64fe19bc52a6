/**
 * Frozen V3 written shapes: the envelope and typed core events, as the V3 validator sees them
 * once their shapes are checked.
 */
import type { V3Data, V3EventType } from './schemas.js';

export type V3SurfaceOp = { op: 'replace'; start: number; end: number };

/** A V3 event envelope. */
export type V3Event = {
  readonly seq: number;
  readonly type: string;
  readonly time: number;
  readonly data: unknown;
  readonly surfaceOp?: V3SurfaceOp;
  readonly ignorable?: true;
};

/** A V3 core event with its typed payload. */
export type V3CoreEvent = { [K in V3EventType]: V3Event & { readonly type: K; readonly data: V3Data<K> } }[V3EventType];

/** V3's surface events: the only ones that may carry `surfaceOp`. */
export const V3_SURFACE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result']);
