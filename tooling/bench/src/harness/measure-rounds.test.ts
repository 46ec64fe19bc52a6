import { describe, expect, it } from 'vitest';
import { measureRounds, roundsFor, seriesOf } from './measure-rounds.js';

describe('measureRounds', () => {
  it('runs every step once per round, rotating which goes first', async () => {
    const order: string[] = [];
    const step = (name: string) => () => {
      order.push(name);
      return Promise.resolve(order.length);
    };
    await measureRounds({ runs: 3, steps: { a: step('a'), b: step('b'), c: step('c') } });
    expect(order).toEqual(['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
  });

  it('records nothing from warm-up rounds and pairs series by round', async () => {
    let round = 0;
    const series = await measureRounds({
      runs: 2,
      warmup: 1,
      steps: { base: () => Promise.resolve(round * 10), subject: () => Promise.resolve(round * 10 + 1) },
      afterRound: () => {
        round += 1;
        return Promise.resolve();
      },
    });
    expect(seriesOf(series, 'base')).toEqual([10, 20]);
    expect(seriesOf(series, 'subject')).toEqual([11, 21]);
  });

  it('records several metrics of one step as step.metric series', async () => {
    const series = await measureRounds({ runs: 2, steps: { fork: () => Promise.resolve({ ms: 3, bytes: 100 }) } });
    expect(seriesOf(series, 'fork.ms')).toEqual([3, 3]);
    expect(seriesOf(series, 'fork.bytes')).toEqual([100, 100]);
    expect(() => seriesOf(series, 'fork')).toThrow(/no series "fork"/);
  });

  it('refuses fewer than one run', async () => {
    await expect(measureRounds({ runs: 0, steps: {} })).rejects.toThrow(/runs ≥ 1/);
  });
});

describe('roundsFor', () => {
  it('caps 100k-event histories at three rounds and leaves smaller ones alone', () => {
    expect(roundsFor(5, 100_000)).toBe(3);
    expect(roundsFor(2, 100_000)).toBe(2);
    expect(roundsFor(5, 10_000)).toBe(5);
  });
});
