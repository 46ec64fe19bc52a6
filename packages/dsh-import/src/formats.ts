/**
 * @module dsh-import/formats
 * The formats dsh-import reads, alone, for a caller that lists them without loading the readers
 * and dsh-codec (the CLI's `--help`). The main entry exports the same list.
 */
export { TRANSCRIPT_FORMATS, type TranscriptFormat } from './detect-format.js';
