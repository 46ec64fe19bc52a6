/**
 * @module start-session
 * Where interactive mode starts: `--resume REF`, `--continue` (the host's most recent session of the
 * working directory, stored cwds resolved as the host resolves them), else a new session.
 */
import { HostError, type Host } from 'dsh-host';
import type { OptionValues } from '../parse-command-line.js';

/** The id of the session interactive mode opens; a `--continue` that finds none starts a new one. */
export async function startSession(host: Host, values: OptionValues, cwd: string): Promise<string> {
  if (typeof values.resume === 'string') return host.resolve(values.resume);
  if (values.continue === true) {
    try {
      return await host.mostRecentForCwd(cwd);
    } catch (error) {
      if (!(HostError.is(error) && error.code === 'SESSION_NOT_FOUND')) throw error;
    }
  }
  const model = typeof values.model === 'string' ? values.model : 'keyless';
  return (await host.create({ ...(typeof values.name === 'string' ? { title: values.name } : {}), config: { cwd, model } })).sessionId;
}
