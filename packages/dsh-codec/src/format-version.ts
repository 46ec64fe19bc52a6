/**
 * @module dsh-codec/format-version
 * The current format version alone, for a caller that names it without loading the codec's schemas
 * and validators (the CLI's `--help`). The main entry exports the same constant.
 */
export { CURRENT_FORMAT_VERSION } from './current-format-version.js';
