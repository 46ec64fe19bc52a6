/** One word for a POSIX shell: as it is when it holds only safe characters, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
