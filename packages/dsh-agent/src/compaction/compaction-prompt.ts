/**
 * @module compaction/compaction-prompt
 * The texts of a compaction request: the instruction, the system prompt and the summary's prefix.
 */
/** The instruction the compaction plugin appends to the history when it asks a model for a summary. */
export const COMPACTION_INSTRUCTION =
  'Summarize the conversation so far for your own future use: the user’s goals, what was done, ' +
  'files and facts learned, decisions, and anything still open. Reply with the summary only.';

/** The system prompt of a summary request. */
export const COMPACTION_SYSTEM = 'You write compact, faithful summaries of agent conversations. Never invent facts.';

/** How the replacing user message introduces the summary to the model. */
export const SUMMARY_PREFIX = 'Summary of the conversation so far (earlier messages were compacted):\n\n';
