import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../documents/index.js';
import type { RunStore } from '../store/types.js';
import { historyUpToRun } from '../../history/trends-up-to.js';
import { renderHtml, renderJson, renderJunit, renderMarkdown } from '../../reports/index.js';

/** Write a run's report files to `<outDir>/runs/<run-id>/` and return that folder. */
export function writeRunReports(outDir: string, store: RunStore, runId: string, report: Report): string {
  const runDir = join(outDir, 'runs', runId);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, 'report.json'), renderJson(report));
  // after the run finished: the history ends with this run; later runs of other processes are left out
  writeFileSync(
    join(runDir, 'report.html'),
    renderHtml(report, { history: historyUpToRun(store, runId, { report }) }),
  );
  writeFileSync(join(runDir, 'report.md'), renderMarkdown(report));
  writeFileSync(join(runDir, 'report.xml'), renderJunit(report));
  return runDir;
}
