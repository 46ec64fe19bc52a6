/**
 * @module serve-command-spec
 * `dsh serve`: its entry in the command table (the host over HTTP and its bounds, SPEC §10, §27).
 */
import { MODEL_OPTION, NO_CHECKPOINTS_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh serve`: the host over HTTP. */
export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  usage:
    'dsh serve [--port N] [--host ADDR] [--token TOKEN] [--allowed-host NAMES] [--workspace DIR] [--max-streams N] [--max-connections N] [--max-sessions N] [--idle-session-seconds S]',
  summary: 'serve the HTTP API (REST + SSE) over the data directory',
  description:
    'Binds 127.0.0.1 by default. Any other address requires a bearer token (--token or $DSH_TOKEN). Requests whose Host is not an IP, localhost, the bound name or an allowed name are refused (DNS rebinding), as are cross-origin writes and non-JSON bodies.\n' +
    'Each session runs on the model it recorded (--model answers those that record none) and its tools in its own cwd;\n' +
    'a session without one (recordings, imports, V0 logs, POST /api/sessions without config.cwd) uses --workspace DIR,\n' +
    'or has its tool calls refused NO_WORKSPACE — never the directory dsh serve was started in.',
  options: {
    port: { type: 'string', value: 'N', help: 'port (default 4317; 0 picks a free one)' },
    host: { type: 'string', value: 'ADDR', help: 'bind address (default 127.0.0.1)' },
    token: { type: 'string', value: 'TOKEN', help: 'bearer token clients must send (default $DSH_TOKEN)' },
    'allowed-host': { type: 'string', value: 'NAMES', help: 'comma-separated host names clients may use (default $DSH_ALLOWED_HOSTS)' },
    workspace: {
      type: 'string',
      value: 'DIR',
      help: 'working directory of sessions that name none (default: none; their tools are refused NO_WORKSPACE)',
    },
    'max-streams': { type: 'string', value: 'N', help: 'concurrent event streams (default 256); one more is 503 TOO_MANY_STREAMS' },
    'max-connections': {
      type: 'string',
      value: 'N',
      help: 'open connections (default half the descriptor limit, at most 4096); one more closes the one idle longest',
    },
    'max-sessions': {
      type: 'string',
      value: 'N',
      help: 'live sessions at once (default 128); one more closes an idle one, or is 503 TOO_MANY_SESSIONS when all are busy',
    },
    'idle-session-seconds': {
      type: 'string',
      value: 'S',
      help: 'close a live session idle this long (default 300; lease released), reopened on its next request',
    },
    model: MODEL_OPTION,
    'no-checkpoints': NO_CHECKPOINTS_OPTION,
    ...STORE_OPTIONS,
  },
  positionals: 0,
};
