import { summarize, type Summary } from './summarize.js';

/** A goal a figure is checked against, e.g. `{ op: '>=', value: 30 }` for "at least 30× the baseline". */
export interface Target {
  readonly op: '>=' | '<=';
  readonly value: number;
  /** Also an absolute bound: the subject's median at most this, in the figure's metric (e.g. SPEC §23's 50 ms). */
  readonly medianAtMost?: number;
}

/**
 * One reported figure: the subject's metric divided by its baseline's, per repetition, plus the
 * absolute values that produced it. Every number in the report is one of these.
 */
export interface Figure {
  readonly workload: string;
  readonly label: string;
  /** The unit both sides are measured in, e.g. `events/s`, `ms`, `bytes`. */
  readonly metric: string;
  readonly baselineLabel: string;
  /** `subject / baseline` per repetition. */
  readonly ratio: Summary;
  readonly subject: Summary;
  readonly baseline: Summary;
  readonly target?: Target;
  readonly note?: string;
}

/** Details of a figure other than its trials. */
export interface FigureSpec {
  readonly workload: string;
  readonly label: string;
  readonly metric: string;
  readonly baselineLabel: string;
  readonly target?: Target;
  readonly note?: string;
}

/**
 * Builds a figure from two series measured in the same rounds (`subject[i]` pairs with
 * `baseline[i]`); refuses series of different lengths and a zero baseline (no ratio exists).
 */
export function figureOf(spec: FigureSpec, subject: readonly number[], baseline: readonly number[]): Figure {
  if (subject.length !== baseline.length || subject.length === 0) {
    throw new RangeError(
      `${spec.workload} / ${spec.label}: expected paired series, received ${subject.length} and ${baseline.length} values`,
    );
  }
  const ratios = subject.map((value, index) => {
    const base = baseline[index] ?? 0;
    if (base === 0) throw new RangeError(`${spec.workload} / ${spec.label}: baseline of round ${index + 1} is 0, no ratio`);
    return value / base;
  });
  return { ...spec, ratio: summarize(ratios), subject: summarize(subject), baseline: summarize(baseline) };
}

/** Whether the figure's median ratio meets its target; `undefined` when it has none. */
export function meetsTarget(figure: Figure): boolean | undefined {
  const { target } = figure;
  if (!target) return undefined;
  const ratioMet = target.op === '>=' ? figure.ratio.median >= target.value : figure.ratio.median <= target.value;
  return ratioMet && (target.medianAtMost === undefined || figure.subject.median <= target.medianAtMost);
}

/** The target as the reports print it: `≤ 1.20×`, with an absolute bound `≤ 1.20×, ≤ 50.0 ms`. */
export function targetText(
  figure: Figure,
  formatRatio: (value: number) => string,
  formatValue: (value: number, metric: string) => string,
): string {
  const { target } = figure;
  if (!target) return '';
  const ratio = `${target.op === '>=' ? '≥' : '≤'} ${formatRatio(target.value)}`;
  return target.medianAtMost === undefined ? ratio : `${ratio}, ≤ ${formatValue(target.medianAtMost, figure.metric)}`;
}
