/**
 * One figure of `npm run bench`: what was measured, its value, the baseline it is read against
 * (measured in the same run, since the machines are shared and noisy), the target and whether it
 * was met. Every bench reports its figures through `reportFigures`; scripts/bench.mjs gathers them
 * into one table and bench/results.json.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface Figure {
  /** "group: what", e.g. "catalogue API: requests/s vs bare node:http". */
  name: string;
  value: number;
  unit: string;
  /** The same-run baseline the value is read against, or null where none applies. */
  baseline: number | null;
  /** The target as a reader would say it ("< 20 ms", ">= 70 %"), or null for a figure shown for context. */
  target: string | null;
  /** Whether the target was met; null where there is no target. */
  met: boolean | null;
}

type Comparison = '<' | '<=' | '>' | '>=';

/** A figure with a numeric target: `met` is computed, never typed in. */
export function figure(
  name: string,
  value: number,
  unit: string,
  options: { baseline?: number | null; target?: [Comparison, number] } = {},
): Figure {
  const target = options.target;
  const rounded = round(value);
  return {
    name,
    value: rounded,
    unit,
    baseline: options.baseline === undefined || options.baseline === null ? null : round(options.baseline),
    target: target ? `${target[0]} ${target[1]}${unit ? ` ${unit}` : ''}` : null,
    met: target ? compare(value, target[0], target[1]) : null,
  };
}

function compare(value: number, op: Comparison, limit: number): boolean {
  switch (op) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
  }
}

function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}

/**
 * Hands figures to `npm run bench` (which sets BENCH_FIGURES_FILE) and prints them, so a bench run
 * alone (`npx tsx bench/x.ts`) shows them too.
 */
export function reportFigures(figures: Figure[]): void {
  for (const f of figures) {
    const verdict = f.met === null ? '' : f.met ? '  met' : '  MISSED';
    const baseline = f.baseline === null ? '' : ` (baseline ${f.baseline} ${f.unit})`;
    console.log(
      `  ${f.name}: ${f.value} ${f.unit}${baseline}${f.target ? `, target ${f.target}` : ''}${verdict}`,
    );
  }
  // Set by scripts/bench.mjs for the run.
  const file = process.env.BENCH_FIGURES_FILE;
  if (!file) return;
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, figures.map((f) => `${JSON.stringify(f)}\n`).join(''));
}

/** The q-quantile (0..1) of ascending numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
