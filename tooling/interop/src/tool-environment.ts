/**
 * The offline environment of SPEC §18 for each real tool: a temporary HOME with the tool's config
 * folder, the fake model server as its provider, every "nonessential" network feature off, and the
 * server as HTTPS_PROXY so any other connection attempt is seen (and refused) instead of leaving.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolName } from './install-tool.js';

/** The fake model the configs name. */
export const FAKE_MODEL = 'fake-model';

/** What a tool run needs: its environment and where the tool keeps its sessions. */
export type ToolEnvironment = { env: Record<string, string>; sessionsDir: string; configDir: string };

/**
 * Writes the tool's config under `home` and returns its environment (PATH kept, everything else
 * fresh). `server` is the fake model server's origin. `pi` speaks Anthropic Messages by default,
 * `piApi: 'openai-completions'` switches it to Chat Completions.
 */
export async function toolEnvironment(
  tool: ToolName,
  options: { home: string; server: string; piApi?: 'anthropic-messages' | 'openai-completions' },
): Promise<ToolEnvironment> {
  const { home, server } = options;
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USER: 'dsh-interop',
    TMPDIR: join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HTTPS_PROXY: server,
    HTTP_PROXY: server,
    https_proxy: server,
    http_proxy: server,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
  await mkdir(base.TMPDIR as string, { recursive: true });
  if (tool === 'claude-code' || tool === 'claude-agent-sdk') {
    const configDir = join(home, '.claude');
    await mkdir(configDir, { recursive: true });
    return {
      configDir,
      sessionsDir: join(configDir, 'projects'),
      env: {
        ...base,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: server,
        ANTHROPIC_API_KEY: 'sk-ant-fake-interop-key',
        ANTHROPIC_MODEL: FAKE_MODEL,
        ANTHROPIC_SMALL_FAST_MODEL: FAKE_MODEL,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
      },
    };
  }
  if (tool === 'codex') {
    const configDir = join(home, '.codex');
    await mkdir(configDir, { recursive: true });
    await writeFile(
      join(configDir, 'config.toml'),
      [
        `model = "${FAKE_MODEL}"`,
        'model_provider = "fake"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${server}/v1"`,
        'env_key = "FAKE_OPENAI_KEY"',
        'wire_api = "responses"',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[features]',
        'plugins = false',
        'remote_plugin = false',
        'apps = false',
        'plugin_sharing = false',
        '',
      ].join('\n'),
    );
    return { configDir, sessionsDir: join(configDir, 'sessions'), env: { ...base, CODEX_HOME: configDir, FAKE_OPENAI_KEY: 'fake-key' } };
  }
  const configDir = join(home, '.pi', 'agent');
  await mkdir(configDir, { recursive: true });
  const api = options.piApi ?? 'anthropic-messages';
  await writeFile(
    join(configDir, 'models.json'),
    JSON.stringify(
      {
        providers: {
          fake: {
            baseUrl: api === 'anthropic-messages' ? server : `${server}/v1`,
            api,
            apiKey: 'fake-key',
            models: [{ id: FAKE_MODEL, contextWindow: 200000, maxTokens: 4096 }],
          },
        },
      },
      null,
      2,
    ),
  );
  return { configDir, sessionsDir: join(configDir, 'sessions'), env: { ...base, PI_CODING_AGENT_DIR: configDir, PI_OFFLINE: '1' } };
}
