/**
 * Frozen V5 written shapes that differ from the current in-memory types: the V5 header and V5's
 * core event types (V4's). Added when V6 arrived, so V5 stays typed as it was released. `V5Header`
 * repeats the current `SessionHeader` (`../types.ts`) on purpose: a frozen snapshot must not follow
 * the current type when it moves (docs/decisions/2026-12-02-codec-copies.md).
 */
import type { ForkRequest } from '../types.js';
import type { V4CoreEventType } from '../v4/types.js';

/** The V5 header, line 1 of a file written by a V5 dsh. */
export type V5Header = {
  format: 'dsh-session';
  version: 5;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
  forkRequest?: ForkRequest;
};

/** The V5 core event types: V4's (V5 added a content block, no event type). */
export type V5CoreEventType = V4CoreEventType;
