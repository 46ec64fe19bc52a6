/**
 * The incremental V4 check for appending one event at a time (used by `Session.append`).
 */
import type { ValidationIssue } from '../types.js';
import { V4EventValidator } from './v4-event-validator.js';

/** Checks events appended one by one to a V4 log that starts at seq 0. */
export interface EventChecker {
  /**
   * Every issue of appending `event` (shape and relationships, SPEC §3). `[]` means it was accepted
   * and the checker advanced; otherwise nothing changed.
   */
  accept(event: unknown): ValidationIssue[];
  /** The seq the next accepted event must carry. */
  readonly nextSeq: number;
}

/** A fresh checker expecting seq 0; feed it a seed then live events, in order. */
export function createEventChecker(): EventChecker {
  const validator = new V4EventValidator();
  let nextSeq = 0;
  return {
    accept(event: unknown): ValidationIssue[] {
      const { issues, view } = validator.check(event, nextSeq);
      if (issues.length > 0 || view === undefined) return issues;
      validator.apply(view);
      nextSeq++;
      return issues;
    },
    get nextSeq() {
      return nextSeq;
    },
  };
}
