/**
 * The end of `rgate run` over several suites: one row per suite, then one overall line naming every
 * suite's verdict and what the exit code means. Rows go best first, worst last, and the overall line
 * takes the colour of the worst verdict, so the last thing on the screen is never a green PASS above
 * a failing exit code.
 */
import type { Report, Verdict } from '../../src/documents/index.js';
import { terminalSafe } from '../escape.js';
import { displayGate, isGated } from './view.js';

export interface OverallOptions {
  color?: boolean;
  /** the process exit code the run ends with */
  exitCode: number;
  /** the run stopped because a system under test answered nothing (exit 3) */
  systemDown?: boolean;
  /** a signal stopped the invocation (exit 130 or 143): which suites it cut short, which never ran */
  interrupted?: { by: string; suites: readonly string[]; notRun: readonly string[] };
  /** suites whose uploaded run the server's vs_base gate rules failed (exit 1 whatever their own verdict) */
  vsBaseFailed?: readonly string[];
}

/** NONE (no gate) before PASS: it judged nothing, so it is never the worst */
const RANK: Record<Verdict, number> = { NONE: -1, PASS: 0, WATCH: 1, FAIL: 2 };
const ANSI = { red: 31, green: 32, yellow: 33, bold: 1 } as const;

/**
 * What an exit code of `rgate run` means, in a few words. `verdicts` are those of the gated suites
 * only; `ungated` counts suites run without a gate (measures only), which pass nothing.
 */
export function exitMeaning(code: number, verdicts: readonly Verdict[], ungated = 0): string {
  if (code === 0) {
    if (verdicts.length === 0 && ungated > 0) return 'no gate: measures only, nothing enforced';
    const base = verdicts.includes('WATCH') ? 'passed, with a WATCH warning' : 'every gate passed';
    return ungated > 0 ? `${base}; ${ungated} suite${ungated === 1 ? '' : 's'} without a gate` : base;
  }
  if (code === 1) return 'a gate failed';
  if (code === 2) return 'usage or input error';
  if (code === 3) return 'the system under test is down or rgate failed';
  if (code === 130 || code === 143) return 'interrupted: no verdict';
  return 'unexpected';
}

/** The worst verdict (FAIL > WATCH > PASS); PASS for none. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((w, v) => (RANK[v] > RANK[w] ? v : w), 'PASS');
}

/** Suites best first, worst last; ties in suite-name order (a total order). */
function ordered(reports: readonly Report[]): Report[] {
  return [...reports].sort(
    (a, b) =>
      RANK[a.gate.verdict] - RANK[b.gate.verdict] || (a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : 0),
  );
}

const INSUFFICIENT = 'insufficient evidence: ';

function ruleText(r: ReturnType<typeof displayGate>['rules'][number]): string {
  // too little evidence is why it did not pass, not its value: `39/86 = 0.4535 (min 0.4)` would read
  // as passing. The reason's clause that says so (a timing rule's names its scope), without the hint
  const short = r.reason.split('; ').find((part) => part.includes(INSUFFICIENT));
  if (short !== undefined) return `${r.metric}: ${short}`;
  const frac =
    r.numerator !== undefined && r.denominator !== undefined ? ` ${r.numerator}/${r.denominator}` : '';
  const obs = r.observed === null ? 'n/a' : String(Number(r.observed.toFixed(4)));
  return `${r.metric}${frac} = ${obs} (${r.op} ${r.threshold})`;
}

/** One line per suite (verdict, name, gate, the rules that did not pass), then the overall line. */
export function renderOverall(reports: readonly Report[], opts: OverallOptions): string {
  const color = opts.color ?? false;
  const paint = (code: keyof typeof ANSI, s: string) => (color ? `\u001b[${ANSI[code]}m${s}\u001b[0m` : s);
  const colorOf = (v: Verdict): keyof typeof ANSI =>
    v === 'PASS' ? 'green' : v === 'WATCH' ? 'yellow' : 'red';
  const safe = terminalSafe;
  const rows = ordered(reports);
  const width = Math.max(5, ...rows.map((r) => safe(r.suite).length));
  const out: string[] = [
    paint('bold', `Summary (${reports.length} suite${reports.length === 1 ? '' : 's'})`),
  ];
  const cut = new Set(opts.interrupted?.suites ?? []);
  for (const r of rows) {
    const gate = displayGate(r);
    const v = gate.verdict;
    if (cut.has(r.suite)) {
      // no verdict: its rules were measured on what it observed before the signal (maybe nothing),
      // so none is shown as failed; the first reason is the harness's own count of what it observed
      const observed = r.gate.reasons[0] ?? 'run interrupted';
      out.push(
        `  ${'-'.padEnd(5)} ${safe(r.suite).padEnd(width)}  ${safe(gate.gate_id)}  no verdict (${safe(observed)})`,
      );
      continue;
    }
    if (gate.overruled) {
      // a system down (or a partial run): its verdict stands, but its rules were measured on what it
      // observed, so none is listed as failed (JUnit marks them skipped); the reason says what happened
      const why = r.gate.reasons[0] ?? `run ${gate.overruled}`;
      out.push(
        `  ${paint(colorOf(v), v.padEnd(5))} ${safe(r.suite).padEnd(width)}  ${safe(gate.gate_id)}  not judged (${safe(why)})`,
      );
      continue;
    }
    if (!isGated(r)) {
      out.push(
        `  ${'NONE'.padEnd(5)} ${safe(r.suite).padEnd(width)}  no gate (measures only, nothing enforced)`,
      );
      continue;
    }
    const cause =
      gate.cause === 'judgments'
        ? '  (insufficient judgments: the fixture decides it)'
        : gate.cause === 'queries'
          ? '  (too few queries: the query set decides it)'
          : '';
    out.push(
      `  ${paint(colorOf(v), v.padEnd(5))} ${safe(r.suite).padEnd(width)}  ${safe(gate.gate_id)}${cause}`,
    );
    for (const rule of gate.rules.filter((x) => x.status !== 'pass'))
      out.push(`        ${rule.status}: ${safe(ruleText(rule))}`);
  }
  const vsBaseFail = new Set(opts.vsBaseFailed ?? []);
  const verdicts = reports.filter(isGated).map((r) => r.gate.verdict);
  const ungated = reports.length - verdicts.length;
  // the worst first in the overall line too: the eye reads its start
  const parts = opts.interrupted
    ? interruptedParts(reports, opts.interrupted).map(safe)
    : ordered(reports)
        .reverse()
        .map(
          (r) =>
            `${safe(r.suite)} ${isGated(r) ? r.gate.verdict : 'NONE (no gate)'}${r.gate.cause === 'judgments' || r.gate.cause === 'queries' ? ` (${r.gate.cause})` : ''}${vsBaseFail.has(r.suite) ? ', vs base FAIL on the server' : ''}`,
        );
  const worst: Verdict = opts.exitCode === 0 ? worstVerdict(verdicts) : 'FAIL';
  const down = opts.systemDown ? ' (a system under test is down)' : '';
  const head = opts.interrupted ? `interrupted by ${safe(opts.interrupted.by)}: ` : '';
  const line = `rgate: ${head}${parts.join(', ') || 'no suite ran'}${down} -> exit ${opts.exitCode} (${exitMeaning(opts.exitCode, verdicts, ungated)})`;
  out.push(paint('bold', paint(colorOf(worst), line)));
  return out.join('\n');
}

/**
 * An interrupted invocation is no verdict, so its line names none: the suite cut short, those that
 * never ran, and those complete before the signal (their verdicts are in the rows above).
 */
function interruptedParts(
  reports: readonly Report[],
  i: NonNullable<OverallOptions['interrupted']>,
): string[] {
  const cut = new Set(i.suites);
  return [
    ...i.suites.map((n) => `${n} interrupted`),
    ...i.notRun.map((n) => `${n} not run`),
    ...reports.filter((r) => !cut.has(r.suite)).map((r) => `${r.suite} complete`),
  ];
}
