/**
 * @module The latest title, config and working directory of an event source (SPEC §3.3:
 * `session/title` and `session/config` are standalone, latest wins), read from its end. The one place
 * that derives them: `summarize`, `SessionLog` and `latestMetadata` (store/, the public form).
 */
import type { SessionConfig } from 'dsh-codec';
import type { EventSource } from './event-source.js';

/** What a log says about itself now: each field absent when the log (and header) never said it. */
export type SessionMetadata = {
  /** The latest `session/title`'s title. */
  title?: string;
  /** The latest `session/config`, whole (a later config replaces an earlier one). */
  config?: SessionConfig;
  /** The latest `session/config` that names a cwd, else the header's cwd. */
  cwd?: string;
};

const TITLE = ['session/title'];
const CONFIG = ['session/config'];

/** @internal `latestMetadata` of a source, with `headerCwd` as the fallback cwd; reads only the events it needs. */
export function latestMetadataOf(source: EventSource, headerCwd?: string): SessionMetadata {
  const titleAt = source.findLast(TITLE);
  const title = titleAt === -1 ? undefined : (source.at(titleAt).data as { title: string }).title;
  const configAt = source.findLast(CONFIG);
  const config = configAt === -1 ? undefined : (source.at(configAt).data as SessionConfig);
  let cwd = config?.cwd;
  for (let end = configAt; cwd === undefined && end > 0;) {
    const at = source.findLast(CONFIG, end);
    if (at === -1) break;
    cwd = (source.at(at).data as SessionConfig).cwd;
    end = at;
  }
  cwd ??= headerCwd;
  return {
    ...(title === undefined ? {} : { title }),
    ...(config === undefined ? {} : { config }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}
