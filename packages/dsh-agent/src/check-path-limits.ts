/**
 * @module The bounds a file tool's path must keep before anything is opened or created: Linux's
 * `PATH_MAX` (4096 bytes with the final NUL) for the whole path, `NAME_MAX` (255 bytes) for each
 * name, and a depth cap below the cwd. The tools walk directory by directory from opened handles, so
 * the kernel never sees the whole path and would let a walk create thousands of levels no other
 * program can reach by name; checking first means a refused call creates nothing.
 */
import { AgentError } from './agent-error.js';

/** The limits a tool path is checked against (Linux's values; `depth` counts names below the cwd). */
export const PATH_LIMITS = { pathMaxBytes: 4096, nameMaxBytes: 255, depth: 256 } as const;

function shown(argument: string): string {
  const quoted = JSON.stringify(argument);
  return quoted.length > 120 ? `${quoted.slice(0, 100)}…" (${String(Buffer.byteLength(argument))} bytes)` : quoted;
}

/**
 * Throws `PATH_TOO_LONG` unless `absolute` (the resolved path, with `names` the parts below the cwd)
 * fits in `PATH_MAX`, every name in `NAME_MAX`, and the depth cap. `argument` is what the model sent.
 */
export function checkPathLimits(argument: string, absolute: string, names: readonly string[]): void {
  const { pathMaxBytes, nameMaxBytes, depth } = PATH_LIMITS;
  // The raw argument is bounded too: the kernel refuses a longer one whatever it resolves to.
  const argumentBytes = Buffer.byteLength(argument);
  const absoluteBytes = Buffer.byteLength(absolute);
  const longest = Math.max(argumentBytes, absoluteBytes);
  if (longest >= pathMaxBytes) {
    throw new AgentError(
      'PATH_TOO_LONG',
      `expected a path shorter than ${String(pathMaxBytes)} bytes (PATH_MAX, with the working directory), received ${shown(argument)}: ${String(longest)} bytes`,
    );
  }
  if (names.length > depth) {
    throw new AgentError(
      'PATH_TOO_LONG',
      `expected a path at most ${String(depth)} directories deep below the working directory, received ${shown(argument)}: ${String(names.length)} levels`,
    );
  }
  const long = names.find((name) => Buffer.byteLength(name) > nameMaxBytes);
  if (long !== undefined) {
    throw new AgentError(
      'PATH_TOO_LONG',
      `expected every name in the path to be at most ${String(nameMaxBytes)} bytes (NAME_MAX), received ${shown(argument)} with a name of ${String(Buffer.byteLength(long))} bytes`,
    );
  }
}
