/**
 * Frozen V2 shapes (zod): V1 plus fork lineage in the header, `session/end-seed` and
 * `session/title`.
 */
import { z } from 'zod';
import { v1DataSchemas } from '../v1/schemas.js';

const id = z.string().min(1);

/** The V2 header. */
export const v2HeaderSchema = z.strictObject({
  format: z.literal('dsh-session'),
  version: z.literal(2),
  id,
  createdAt: z.int(),
  cwd: z.string().exactOptional(),
  parentSession: id.exactOptional(),
  forkCut: z.int().min(-1).exactOptional(),
  inheritedEventCount: z.int().min(0),
});

/** Payload schemas of the V2 event types. */
export const v2DataSchemas = {
  ...v1DataSchemas,
  'session/end-seed': z.strictObject({ inherited: z.literal(true).exactOptional() }),
  'session/title': z.strictObject({ title: z.string() }),
} as const;

export type V2Header = z.infer<typeof v2HeaderSchema>;
export type V2EventType = keyof typeof v2DataSchemas;
export type V2Data<K extends V2EventType> = z.infer<(typeof v2DataSchemas)[K]>;

/** A V2 event: `{seq, type, time, data}`. */
export type V2Event = { [K in V2EventType]: { seq: number; type: K; time: number; data: V2Data<K> } }[V2EventType];
