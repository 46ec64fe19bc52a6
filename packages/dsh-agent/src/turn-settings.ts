/**
 * @module turn-settings
 * What the next turn of an agent runs with, read from its session at the time of asking: the tools
 * in force (narrowed by `session/config.tools`), the working directory, the model spec and model,
 * and the system prompt. The agent's options give the fallbacks.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Session } from 'dsh-session';
import type { AgentOptions } from './agent-options.js';
import type { Tool } from './define-tool.js';
import type { Model } from './model.js';
import { defaultSystemPrompt, recordedSystemPromptOf, systemPromptText } from './system-prompt.js';
import { toolsByName } from './turn-messages.js';
import { TurnModels } from './turn-models.js';

/** An agent's own tools, system prompt, cwd and models, and what of them is in force for a session. */
export class TurnSettings {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #system: string | undefined;
  readonly #cwd: string | undefined;
  readonly #models: TurnModels;

  /** Refuses (`INVALID_OPTION`) invalid or duplicate tool names. */
  constructor(options: Pick<AgentOptions, 'model' | 'tools' | 'system' | 'cwd' | 'resolveModel'>) {
    this.#tools = toolsByName(options.tools ?? []);
    this.#system = options.system;
    this.#cwd = options.cwd;
    this.#models = new TurnModels(options.model, options.resolveModel);
  }

  /** The agent's tools narrowed by the latest `session/config.tools`. */
  availableTools(session: Session): Tool[] {
    const listed = session.config?.tools;
    const all = [...this.#tools.values()];
    return listed === undefined ? all : all.filter((tool) => listed.includes(tool.name));
  }

  /** `session/config.cwd`, else the header's `cwd`, else the option, made absolute; undefined when none names one. */
  cwd(session: Session): string | undefined {
    const configured = session.config?.cwd ?? session.header.cwd ?? this.#cwd;
    if (configured === undefined) return undefined;
    return isAbsolute(configured) ? configured : resolve(configured);
  }

  /** The spec of the model that answers the session's next turn (see `TurnModels.specFor`). */
  modelName(session: Session): string {
    return this.#models.specFor(session.config?.model);
  }

  /** The model that answers the session's next turn (see `TurnModels.modelFor`). */
  modelFor(session: Session): Promise<Model> {
    return this.#models.modelFor(session.config?.model);
  }

  /** The recorded system prompt, else the `system` option, else the default for the cwd and tools in force. */
  systemPrompt(session: Session): string {
    const recorded = recordedSystemPromptOf(session);
    if (recorded !== undefined) return systemPromptText(recorded);
    return this.#system ?? defaultSystemPrompt({ cwd: this.cwd(session), tools: this.availableTools(session).map((tool) => tool.name) });
  }
}
