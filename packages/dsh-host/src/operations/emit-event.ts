/** @module `emitEvent`: one appended event handed to the telemetry sink and to this host's watchers of its session. */
import type { SessionEvent } from 'dsh-codec';
import type { HostContext } from '../host-context.js';

/**
 * Telemetry and event watch fan-out: hands one appended event to the telemetry sink (a throwing
 * sink is logged, never fatal) and then to every watcher of the session.
 * @internal
 */
export function emitEvent(context: HostContext, sessionId: string, event: SessionEvent): void {
  const { telemetry } = context.options;
  if (telemetry !== undefined) {
    try {
      telemetry(event, { sessionId });
    } catch (error) {
      context.logger.error(`dsh-host: telemetry sink threw on ${sessionId} seq ${event.seq}`, error);
    }
  }
  for (const listener of context.listeners.get(sessionId) ?? []) listener(event);
}
