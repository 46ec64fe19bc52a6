/**
 * @module start-session
 * Where interactive mode starts: `--resume REF`, `--continue` (the host's most recent session of the
 * working directory, stored cwds resolved as the host resolves them), else a new session.
 */
import { canonicalModelSpec, defaultModelSpec, HostError, type Host } from 'dsh-host/core';
import type { OptionValues } from '../parse-command-line.js';
import { refuseTakenName } from '../refuse-taken-name.js';

/** Where interactive mode starts: the session's id, and the model spec a new session was created with. */
export type StartedSession = { sessionId: string; createdWith?: string };

/**
 * The session interactive mode opens; a `--continue` that finds none starts a new one. A new session
 * records `--model` (Claude Code's names as the spec they mean), else the environment's key's default
 * model, else `keyless`, as print mode does (SPEC §25).
 */
export async function startSession(
  host: Host,
  values: OptionValues,
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<StartedSession> {
  if (typeof values.resume === 'string') return { sessionId: await host.resolve(values.resume) };
  if (values.continue === true) {
    try {
      return { sessionId: await host.mostRecentForCwd(cwd) };
    } catch (error) {
      if (!(HostError.is(error) && error.code === 'SESSION_NOT_FOUND')) throw error;
    }
  }
  const model = typeof values.model === 'string' ? canonicalModelSpec(values.model) : defaultModelSpec(env);
  if (typeof values.name === 'string') await refuseTakenName(host, values.name);
  const title = typeof values.name === 'string' ? { title: values.name } : {};
  return { sessionId: (await host.create({ ...title, config: { cwd, model } })).sessionId, createdWith: model };
}
