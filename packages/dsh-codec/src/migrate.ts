import { CodecError } from './codec-error.js';
import type { SessionEvent, SessionHeader } from './types.js';

/** TEMPORARY until migrations land. */
export function migrateToCurrent(
  _artifact: { header?: unknown; events: readonly unknown[] },
  from: 0 | 1 | 2 | 3,
  _options: { sessionId?: string } = {},
): { header: SessionHeader; events: SessionEvent[] } {
  throw new CodecError('UNSUPPORTED_VERSION', `reading V${String(from)} logs is not available yet`);
}
