/**
 * Frozen V6 written shapes that differ from the current in-memory types: the V6 header. Added when
 * V7 arrived, so V6 stays typed as it was released. `V6Header` repeats the V6 `SessionHeader` on
 * purpose: a frozen snapshot must not follow the current type when it moves
 * (docs/decisions/2026-12-02-codec-copies.md).
 */
import type { ForkRequest } from '../types.js';

/** The V6 header, line 1 of a file written by a V6 dsh. */
export type V6Header = {
  format: 'dsh-session';
  version: 6;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
  forkRequest?: ForkRequest;
};
