/**
 * @module Temp-file names of every writer of a session's log, so crash leftovers are recognised and cleaned.
 */
import { randomUUID } from 'node:crypto';

/**
 * The temp-file name of every writer of a session's log (create, rewrite, `dsh migrate --write` and
 * its backup copy): `.<id>.<pid>.<random>[.bak].tmp` beside the log, so a JSONL store recognises and
 * removes leftovers at open. @internal
 */
export function sessionTempName(id: string, kind: 'log' | 'backup' = 'log'): string {
  return `.${id}.${process.pid}.${randomUUID()}${kind === 'backup' ? '.bak' : ''}.tmp`;
}

/** Matches a `sessionTempName`; group 1 is the session id. @internal */
export const SESSION_TEMP_NAME = /^\.([A-Za-z0-9_-]{1,128})\.[0-9]+\.[0-9a-f-]+(?:\.bak)?\.tmp$/;
