/** @module `withStoredCheckpointsChoice`: the config a new or forked session is given, with the host's `noCheckpoints` stored in it (SPEC §23). */
import type { SessionConfig } from 'dsh-codec';
import type { HostContext } from '../host-context.js';

/**
 * `config` with `checkpoints: false` added when the host was made with `noCheckpoints` and the request
 * chose nothing itself; otherwise `config` as it came (possibly `undefined`). @internal
 */
export function withStoredCheckpointsChoice(context: HostContext, config: SessionConfig | undefined): SessionConfig | undefined {
  if (context.options.noCheckpoints !== true || config?.checkpoints !== undefined) return config;
  return { ...config, checkpoints: false };
}
