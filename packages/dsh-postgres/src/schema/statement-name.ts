/**
 * Names of the statements dsh-postgres prepares once per connection (named statements: parsed and
 * planned on first use, then only bound and run). Planning a read of a segment chain takes longer
 * than running it — 1.2 ms against 0.2 ms for a small session here — so every read that recurs is
 * named. A name is the statement's key and a hash of the schema name: short enough for the server's
 * 63-byte limit (a longer name is cut, and two cut names could meet on a pool two stores share), and
 * different for each schema, whose name is in the text.
 */
import { createHash } from 'node:crypto';

/** Each schema name's hash, computed once (every read asks for a name). */
const schemaTags = new Map<string, string>();

/** `dsh_<key>_<12 hex digits of the schema name's SHA-256>`. @internal */
export function statementName(schemaName: string, key: string): string {
  let tag = schemaTags.get(schemaName);
  if (tag === undefined) {
    tag = createHash('sha256').update(schemaName).digest('hex').slice(0, 12);
    schemaTags.set(schemaName, tag);
  }
  return `dsh_${key}_${tag}`;
}
