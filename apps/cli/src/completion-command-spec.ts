/**
 * @module completion-command-spec
 * `dsh completion bash|zsh|fish`: its entry in the command table.
 */
import type { CommandSpec } from './option-specs.js';

/** The shells `dsh completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `dsh completion SHELL`: prints a completion script generated from the command table. */
export const COMPLETION_COMMAND: CommandSpec = {
  name: 'completion',
  usage: 'dsh completion bash|zsh|fish',
  summary: "print a shell completion script for dsh's commands and options (generated from the command table)",
  description:
    'bash: eval "$(dsh completion bash)" in ~/.bashrc. zsh: eval "$(dsh completion zsh)" in ~/.zshrc (it loads\n' +
    "zsh's bashcompinit). fish: dsh completion fish > ~/.config/fish/completions/dsh.fish.",
  options: { help: { type: 'boolean', short: 'h', help: 'show this help' } },
  positionals: 1,
};
