/**
 * JUnit XML so CI systems show gate failures natively: one <testsuite> per suite, one <testcase> per
 * rule and per checklist item; a failed rule carries <failure message="..."> with its
 * numerator/denominator; a WATCH rule passes and says so in <system-out>. What the system wrote on
 * stderr while answering goes to the suite's <system-err>, one line per distinct warning with its count.
 *
 * Test ids are what CI trackers key history on, so they hold still: classname `rgate.<suite>.<gate_id>`
 * (two suites sharing a gate stay apart), testcase name the rule's metric label (its op too when the
 * gate has two rules on that label). The threshold is a property and in the failure, never in the
 * name: retuning it must not rename the test.
 *
 * A run that overruled its rules (system under test down, interrupted, partial) is one
 * <testcase name="run"> with an <error>, first, and every rule and checklist item is <skipped>: they
 * were measured on what the run observed, so none is a verdict (the terminal summary's "no verdict").
 * Any other FAIL no rule or checklist item explains is the same error: CI must never show a FAIL as
 * 0 failures.
 */
import { holesLines, ruleDetectableTexts, ruleHolesTexts } from './detectable.js';
import type { GateResult, Report, RuleResult } from '../../src/documents/index.js';
import { xmlEscape } from '../escape.js';
import { ruleLabel } from '../../gates/index.js';
import { displayGate, ruleRow, unrankedCountText, vsBaseRow } from './view.js';
import { warningView } from './view-findings.js';

const x = xmlEscape;

/** Testcase names for the gate's rules, in policy order: the rule's label, its op only when the label repeats. */
function ruleCaseNames(rules: readonly RuleResult[]): string[] {
  const labels = rules.map(ruleLabel);
  const names = rules.map((r, i) =>
    labels.filter((l) => l === labels[i]).length > 1 ? `${labels[i]} ${r.op}` : labels[i]!,
  );
  // the same label and op twice (an error rule and a stricter warn rule): numbered in policy order
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k > 1 ? `${n} #${k}` : n;
  });
}

function properties(pairs: readonly (readonly [string, string])[], indent: string): string {
  return (
    `${indent}<properties>\n` +
    pairs.map(([k, v]) => `${indent}  <property name="${x(k)}" value="${x(v)}"/>`).join('\n') +
    `\n${indent}</properties>`
  );
}

/** The run's own error (its type): it overruled the rules, or it FAILed without a rule or checklist item saying why. */
function runError(g: GateResult, failed: number): string | undefined {
  if (g.overruled) return g.overruled;
  return g.verdict === 'FAIL' && failed === 0 ? 'run' : undefined;
}

export function renderJunit(reports: Report | readonly Report[]): string {
  const list = Array.isArray(reports) ? (reports as readonly Report[]) : [reports as Report];
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const report of list) {
    const g = displayGate(report);
    const cls = `rgate.${report.suite}.${g.gate_id}`;
    const notJudged = g.overruled ? `not judged: ${g.reasons[0] ?? `run ${g.overruled}`}` : undefined;
    const skip = notJudged ? `\n      <skipped message="${x(notJudged)}"/>\n    ` : undefined;
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteSkipped = 0;
    const names = ruleCaseNames(g.rules);
    const detectable = ruleDetectableTexts(g.rules);
    const holes = ruleHolesTexts(g.rules);
    const firstHoles = g.rules.findIndex((r) => r.holes);
    const holesHead = holesLines(report)[0] ?? '';
    g.rules.forEach((r, i) => {
      const row = ruleRow(r, report.metrics);
      // "n=126" alone, not "n=126 126", for a count
      const observed = row.counted === `n=${row.value}` ? row.counted : `${row.counted} ${row.value}`.trim();
      const props = properties(
        [
          ['threshold', row.threshold],
          ['observed', observed],
          ...(detectable[i] ? [['detectable', detectable[i]] as [string, string]] : []),
          ...(holes[i] ? [['holes', holes[i]] as [string, string]] : []),
          ...(r.holes && i === firstHoles ? [['verdict_pairs', holesHead] as [string, string]] : []),
        ],
        '      ',
      );
      let body = '';
      if (skip) {
        suiteSkipped++;
        body = skip;
      } else if (r.status === 'fail') {
        suiteFailures++;
        body = `\n      <failure message="${x(`${row.label}: ${r.reason}`)}" type="gate-rule">${x(`observed ${observed}, required ${row.threshold}`)}</failure>\n    `;
      } else if (r.status === 'watch') {
        body = `\n      <system-out>${x(`WATCH: ${r.reason}`)}</system-out>\n    `;
      }
      cases.push(
        `    <testcase classname="${x(cls)}" name="${x(names[i]!)}">\n${props}${body || '\n    '}</testcase>`,
      );
    });
    // a vs_base rule: judged by the server against the base branch's run, so skipped here, with why
    for (const v of g.vs_base_rules ?? []) {
      suiteSkipped++;
      const row = vsBaseRow(v, report.metrics);
      cases.push(
        `    <testcase classname="${x(cls)}" name="${x(row.label)}">\n${properties([['threshold', row.threshold]], '      ')}\n      <skipped message="${x(`not evaluated: ${v.reason}`)}"/>\n    </testcase>`,
      );
    }
    for (const c of g.checklist) {
      let body = '';
      if (skip) {
        suiteSkipped++;
        body = skip;
      } else if (!c.ok) {
        suiteFailures++;
        body = `\n      <failure message="${x(`${c.id}: ${c.evidence}`)}" type="gate-checklist">${x(c.text)}</failure>\n    `;
      }
      cases.push(`    <testcase classname="${x(`${cls}.checklist`)}" name="${x(c.id)}">${body}</testcase>`);
    }
    // an overruled run's other reasons are its rules measured on what it observed (and their advice,
    // such as labelling a pool): not shown as if they were verdicts
    const reasons = g.overruled ? g.reasons.slice(0, 1) : g.reasons;
    const cause = runError(g, suiteFailures);
    const suiteErrors = cause ? 1 : 0;
    if (cause) {
      // first, so CI lists the cause above what it overruled
      cases.unshift(
        `    <testcase classname="${x(cls)}" name="run">\n      <error message="${x(g.reasons[0] ?? 'FAIL')}" type="${x(cause)}">${x(reasons.join('\n'))}</error>\n    </testcase>`,
      );
    }
    tests += cases.length;
    failures += suiteFailures;
    errors += suiteErrors;
    skipped += suiteSkipped;
    const props = properties(
      [
        ['verdict', g.verdict],
        ...(g.overruled ? [['overruled', g.overruled] as const] : []),
        ['suite', report.suite],
        ['gate_id', g.gate_id],
        ['gate_version', g.gate_version],
        ['run_id', report.environment.run_id],
        ['corpus_id', report.artifacts.corpus_id],
        ['query_set_id', report.artifacts.query_set_id],
        ['config_id', report.artifacts.config_id],
      ],
      '    ',
    );
    const w = warningView(report);
    const err = w.headline
      ? `\n    <system-err>${x([w.headline, ...w.lines, ...(w.more ? [w.more] : [])].join('\n'))}</system-err>`
      : '';
    suites.push(
      `  <testsuite name="${x(report.suite)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="${suiteSkipped}">\n` +
        `${props}\n` +
        cases.join('\n') +
        `\n    <system-out>${x([`${g.verdict}: ${reasons.join(' | ')}`, unrankedCountText(report)].filter(Boolean).join('\n'))}</system-out>${err}\n  </testsuite>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="rgate" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n` +
    suites.join('\n') +
    '\n</testsuites>\n'
  );
}
