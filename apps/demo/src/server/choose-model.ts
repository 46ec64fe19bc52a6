/**
 * Picks the demo's model: an explicit `--model`, else a real OpenAI-compatible model when
 * `OPENAI_API_KEY` is set, else the keyless offline one. Never needs a key or the network by default.
 */

/** The model spec to run and why it was chosen. */
export type ModelChoice = { spec: string; reason: string };

/** Decides the model spec from the flag and the environment (`OPENAI_API_KEY`, `OPENAI_MODEL`). */
export function chooseModel(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): ModelChoice {
  if (flag !== undefined) return { spec: flag, reason: '--model' };
  const key = env.OPENAI_API_KEY;
  if (key !== undefined && key !== '') {
    const name = env.OPENAI_MODEL !== undefined && env.OPENAI_MODEL !== '' ? env.OPENAI_MODEL : 'gpt-4o-mini';
    return { spec: `openai:${name}`, reason: 'OPENAI_API_KEY is set' };
  }
  return { spec: 'keyless', reason: 'no OPENAI_API_KEY: the deterministic offline model' };
}
