/**
 * @module dsh-version
 * `dsh --version`: the flags that ask for it and the version this package is, read from its
 * package.json — answered before the command table loads.
 */
import { readFileSync } from 'node:fs';

/** A first argument that asks for the version: `--version`, `-v` or `-V`. */
export function isVersionFlag(arg: string | undefined): boolean {
  return arg === '--version' || arg === '-v' || arg === '-V';
}

/** This package's version, as its package.json states it. */
export function dshVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
