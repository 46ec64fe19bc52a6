import { mkdir } from 'node:fs/promises';
import { createHost, demoTools, openSessionStore, resolveModel, type Host, type HostOptions } from 'dsh-host';
import type { CliContext } from './cli-context.js';
import { resolveDataDir } from './cli-context.js';
import type { OptionValues } from './parse-command-line.js';

/** The tools every CLI host offers; `--tools` narrows them per session. */
export function cliTools() {
  return demoTools();
}

/**
 * Runs `use` with a host over the data directory's JSONL store (created if missing) and the
 * `--model` model (plus `extra` host options such as a telemetry sink), then releases every session it opened and closes the store, even on failure.
 */
export async function withHost<T>(
  context: CliContext,
  values: OptionValues,
  use: (host: Host, dataDir: string) => Promise<T>,
  extra: Pick<HostOptions, 'telemetry'> = {},
): Promise<T> {
  const dataDir = resolveDataDir(context, values.data);
  const spec = typeof values.model === 'string' ? values.model : 'keyless';
  const model = await resolveModel(spec, { cwd: context.cwd, env: context.env });
  await mkdir(dataDir, { recursive: true });
  const store = await openSessionStore({ dir: dataDir });
  const host = createHost({ store, model, tools: cliTools(), cwd: context.cwd, ...extra });
  try {
    return await use(host, dataDir);
  } finally {
    try {
      await host.close();
    } finally {
      await store.close();
    }
  }
}
