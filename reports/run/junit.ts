/**
 * JUnit XML so CI systems show gate failures natively: one <testsuite> per gate (one per report),
 * one <testcase> per rule and per checklist item; a failed rule carries <failure message="..."> with
 * its numerator/denominator; a WATCH rule passes and says so in <system-out>. What the system wrote
 * on stderr while answering goes to the suite's <system-err>, one line per distinct warning with its count.
 * A FAIL no rule or checklist item explains (the run overruled: system under test down, interrupted,
 * partial) is one <testcase name="run"> with an <error>: CI must never show a FAIL as 0 failures.
 */
import type { Report } from '../../src/documents/index.js';
import { xmlEscape } from '../escape.js';
import { displayGate, ruleRow, unrankedCountText } from './view.js';
import { warningView } from './view-findings.js';

export function renderJunit(reports: Report | readonly Report[]): string {
  const list = Array.isArray(reports) ? (reports as readonly Report[]) : [reports as Report];
  const x = xmlEscape;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const report of list) {
    const g = displayGate(report);
    const cls = `rgate.${g.gate_id}`;
    const cases: string[] = [];
    let suiteFailures = 0;
    const seen = new Map<string, number>();
    for (const r of g.rules) {
      const row = ruleRow(r, report.metrics);
      // two rules on one metric (absolute and vs baseline) keep distinct testcase names
      let name = `${row.label} ${row.threshold}`;
      const k = (seen.get(name) ?? 0) + 1;
      seen.set(name, k);
      if (k > 1) name += ` #${k}`;
      const observed = `${row.counted ? `${row.counted} ` : ''}${row.value}`.trim();
      let body = '';
      if (r.status === 'fail') {
        suiteFailures++;
        body = `\n      <failure message="${x(`${r.metric}: ${r.reason}`)}" type="gate-rule">${x(`observed ${observed}, required ${row.threshold}`)}</failure>\n    `;
      } else if (r.status === 'watch') {
        body = `\n      <system-out>${x(`WATCH: ${r.reason}`)}</system-out>\n    `;
      }
      cases.push(`    <testcase classname="${x(cls)}" name="${x(name)}">${body}</testcase>`);
    }
    for (const c of g.checklist) {
      const body = c.ok
        ? ''
        : `\n      <failure message="${x(`${c.id}: ${c.evidence}`)}" type="gate-checklist">${x(c.text)}</failure>\n    `;
      if (!c.ok) suiteFailures++;
      cases.push(`    <testcase classname="${x(`${cls}.checklist`)}" name="${x(c.id)}">${body}</testcase>`);
    }
    let suiteErrors = 0;
    if (g.verdict === 'FAIL' && suiteFailures === 0) {
      suiteErrors = 1;
      const why = g.reasons[0] ?? 'FAIL';
      cases.unshift(
        `    <testcase classname="${x(cls)}" name="run">\n      <error message="${x(why)}" type="run">${x(g.reasons.join('\n'))}</error>\n    </testcase>`,
      );
    }
    tests += cases.length;
    failures += suiteFailures;
    errors += suiteErrors;
    const props = [
      ['verdict', g.verdict],
      ['gate_version', g.gate_version],
      ['suite', report.suite],
      ['run_id', report.environment.run_id],
      ['corpus_id', report.artifacts.corpus_id],
      ['query_set_id', report.artifacts.query_set_id],
      ['config_id', report.artifacts.config_id],
    ]
      .map(([k, v]) => `      <property name="${x(k!)}" value="${x(v!)}"/>`)
      .join('\n');
    const w = warningView(report);
    const err = w.headline
      ? `\n    <system-err>${x([w.headline, ...w.lines, ...(w.more ? [w.more] : [])].join('\n'))}</system-err>`
      : '';
    suites.push(
      `  <testsuite name="${x(g.gate_id)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="0">\n` +
        `    <properties>\n${props}\n    </properties>\n` +
        cases.join('\n') +
        `\n    <system-out>${x([`${g.verdict}: ${g.reasons.join(' | ')}`, unrankedCountText(report)].filter(Boolean).join('\n'))}</system-out>${err}\n  </testsuite>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="rgate" tests="${tests}" failures="${failures}" errors="${errors}">\n` +
    suites.join('\n') +
    '\n</testsuites>\n'
  );
}
