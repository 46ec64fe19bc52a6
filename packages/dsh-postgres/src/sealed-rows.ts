/**
 * What a reader takes as written by dsh-postgres from validated data and unchanged since: a header
 * row holding the canonical current line, an event row whose seal still holds and whose body is the
 * line `serializeEvent` wrote for its seq. Checks that cost no parse of the body.
 */
import { encodeHeader, type SessionHeader } from 'dsh-codec';

/** A current-version header whose canonical line is `line` (as dsh-postgres stores it); undefined for anything else. @internal */
export function canonicalHeader(line: string): SessionHeader | undefined {
  try {
    const header = JSON.parse(line) as SessionHeader;
    // encodeHeader checks a current-version header in full (any other version is refused).
    return encodeHeader(header) === line ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the event row at `seq` can be trusted as validated: its seal holds and its body is that seq's `serializeEvent` line. @internal */
export function isSealedLine(seq: number, body: string, sealed: boolean | null): boolean {
  return sealed === true && body.startsWith(`{"seq":${String(seq)},`) && body.endsWith('}\n');
}
