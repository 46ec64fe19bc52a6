/**
 * @module when-launcher-exits
 * The launcher watch of `dsh serve` and the demo server: a server started by `npm run` or `pnpm run`
 * stops when that launcher dies without passing a signal on.
 */

/**
 * Calls `onExit` once if this process was started by a package-manager script (`npm run`, `pnpm run`:
 * `npm_lifecycle_event` is set) and that launcher dies without passing a signal on — e.g. `kill -9`
 * of npm — so a server never keeps serving as an orphan. Returns a function that stops watching.
 */
export function whenLauncherExits(onExit: () => void, env: NodeJS.ProcessEnv = process.env, intervalMs = 250): () => void {
  if (env.npm_lifecycle_event === undefined) return () => undefined;
  const launcher = process.ppid;
  const timer = setInterval(() => {
    // Orphans are re-parented (to init or a subreaper), so a changed parent id means the launcher is gone.
    if (process.ppid === launcher) return;
    clearInterval(timer);
    onExit();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
