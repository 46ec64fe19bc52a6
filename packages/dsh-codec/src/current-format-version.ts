/** The format version this release writes (and the newest it reads). */
export const CURRENT_FORMAT_VERSION = 7;
