import { describe, expect, it } from 'vitest';
import { parseOptions, WORKLOADS } from './parse-options.js';

describe('parseOptions', () => {
  it('defaults to a full run of every workload that writes the report', () => {
    expect(parseOptions([])).toEqual({ quick: false, runs: 5, only: [...WORKLOADS], write: true, help: false });
  });

  it('makes --quick fewer rounds and print-only unless --write', () => {
    expect(parseOptions(['--quick'])).toMatchObject({ quick: true, runs: 3, write: false });
    expect(parseOptions(['--quick', '--write'])).toMatchObject({ quick: true, write: true });
  });

  it('accepts --runs and --only with = or a separate value, and ignores a bare --', () => {
    expect(parseOptions(['--', '--runs=9', '--only', 'fork,peers'])).toMatchObject({ runs: 9, only: ['fork', 'peers'] });
  });

  it('refuses unknown arguments, bad counts and unknown workloads, naming them', () => {
    expect(() => parseOptions(['--fast'])).toThrow(/unknown argument "--fast"/);
    expect(() => parseOptions(['--runs', '0'])).toThrow(/--runs: expected an integer 1–100, received "0"/);
    expect(() => parseOptions(['--only=fork,speed'])).toThrow(/received "speed"/);
    expect(() => parseOptions(['--runs'])).toThrow(/expected a value/);
  });
});
