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
