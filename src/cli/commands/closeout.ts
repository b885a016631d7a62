import { resolveRunRef } from '../run-ref.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { loadFixtureSet } from '../../snapshot/index.js';
import { isGateC, loadGatePolicy } from '../../../gates/index.js';
import { buildCloseout } from '../../../history/closeout.js';
import type { ResidualRisk } from '../../documents/index.js';
import { readResiduals } from '../../../history/closeout-residuals.js';
import {
  rankingEvidenceLines,
  renderCloseoutHtml,
  renderCloseoutJson,
  renderCloseoutMarkdown,
} from '../../../reports/history/closeout.js';
import type { RgateCommand } from '../command.js';
import { loadSuiteSpec, openStore, withStoreOptions, type StoreArgs } from './history.js';
import { outDirOf } from '../out-dir.js';

interface CloseoutArgs extends StoreArgs {
  suite: string;
  gate?: string;
  residuals?: string;
  out?: string;
  run?: string;
  config?: string;
  json?: boolean;
}

export const closeoutCommand: RgateCommand<CloseoutArgs> = {
  command: 'closeout <suite>',
  describe:
    "Write the closeout (Markdown, HTML, JSON) of a suite's newest run on its frozen fixture: a Gate C closeout under a Gate C gate",
  builder: (y: Argv) =>
    withStoreOptions(y)
      .positional('suite', { type: 'string', describe: 'suite name from rgate.config.json' })
      .option('gate', {
        type: 'string',
        describe: "gate policy id or file (default: the suite's gate); Gate C: a Gate C gate",
      })
      .option('residuals', {
        type: 'string',
        describe: 'JSON file of residual risks, each with an owner and a due date',
      })
      .option('out', {
        type: 'string',
        describe: 'folder for closeout.{md,html,json} (default <out-dir>/closeout/<suite>-<run-id>)',
      })
      .option('run', {
        type: 'string',
        describe: "the run to close out (default: the suite's newest complete run)",
      })
      .option('config', {
        type: 'string',
        describe: 'path to rgate.config.json (default: found from the cwd upward)',
      })
      .option('json', { type: 'boolean', describe: 'print the closeout document as JSON' })
      .example(
        '$0 closeout context-load --gate context-load-gate-c-v0 --residuals residuals.json',
        'the Gate C review document',
      )
      .example(
        '$0 closeout context-load --gate context-load-gate-c-v0 --out docs/gate-c',
        'write it next to the review',
      ),
  handler: async (args, io) => {
    const { spec, root } = loadSuiteSpec(io, args.suite, args.config);
    const gate = args.gate ?? spec.gate ?? undefined;
    if (!gate)
      throw new RgateError(
        'usage',
        `suite "${args.suite}" has no gate; name one with --gate`,
        'e.g. --gate context-load-gate-c-v0',
      );
    const policy = loadGatePolicy(gate, root);
    // refuses a fixture whose files no longer match freeze.json (the binding the closeout certifies)
    const pinned = loadFixtureSet(spec.fixture, { root, verify: true });
    const residuals: ResidualRisk[] = args.residuals ? readResiduals(resolve(io.cwd, args.residuals)) : [];
    const store = openStore(io, args);
    let doc;
    try {
      doc = buildCloseout({
        suite: args.suite,
        policy,
        pinned,
        store,
        residuals,
        ...(args.run !== undefined ? { runId: resolveRunRef(store, args.run) } : {}),
      });
    } finally {
      store.close();
    }
    const dir = resolve(
      io.cwd,
      args.out ??
        join(outDirOf(io, args['out-dir'], args.config), 'closeout', `${args.suite}-${doc.run.run_id}`),
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'closeout.md'), renderCloseoutMarkdown(doc));
    writeFileSync(join(dir, 'closeout.html'), renderCloseoutHtml(doc));
    writeFileSync(join(dir, 'closeout.json'), renderCloseoutJson(doc));
    const where = relative(io.cwd, dir) || dir;
    if (args.json) io.out(renderCloseoutJson(doc).replace(/\n$/, ''));
    else {
      io.out(
        `${isGateC(doc.gate.gate_id) ? 'Gate C closeout' : 'Closeout'} of ${args.suite}: ${doc.gate.verdict} (${doc.gate.gate_id}) on run ${doc.run.run_id}`,
      );
      io.out(
        `  fixture ${doc.freeze.artifact_id}@${doc.freeze.version} verified; baseline ${doc.baseline ? doc.baseline.run_id : '(none)'}${doc.baseline?.version_changed ? ' (reset note cited)' : ''}`,
      );
      for (const r of doc.gate.reasons) io.out(`  - ${r}`);
      for (const l of rankingEvidenceLines(doc)) io.out(`  ${l}`);
      if (!isGateC(doc.gate.gate_id))
        io.out(
          `  ${doc.gate.gate_id} is not a Gate C gate: this closes no Gate C review (name one with --gate)`,
        );
      for (const w of doc.warnings ?? []) io.err(`rgate: warning: ${w}`);
      io.out(`  ${doc.residuals.length} residual risk(s); written ${where}/closeout.{md,html,json}`);
    }
    return doc.ready ? EXIT.ok : EXIT.gateFail;
  },
};
