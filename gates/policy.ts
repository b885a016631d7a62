/**
 * Load and check gate policies: JSON Schema first (structure), then what a schema cannot say
 * (exactly one of min/max, metric ids known to the registry, band order). Every mistake names the
 * file and the JSON path, e.g. `gates/x.gate.json /rules/2/metric: unknown metric "ndcg@5"`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { validateOrThrow } from '../src/contracts/ajv.js';
import type { GatePolicy } from '../src/documents/index.js';
import { validateGatePolicySchema } from '../src/contracts/gate-policy.js';
import { parse, type ParseError } from 'jsonc-parser';
import { RgateError } from '../src/core/errors.js';
import { parseJsonText } from '../src/core/jsonl.js';
import { lookupRoots, PACKAGE_ROOT } from '../src/core/package-root.js';
import { isGateMetricId, TIMING_METRICS } from './metric-ids.js';

const HINT = 'see gates/semantic-retrieval-v1.gate.json for a complete policy';

/** Check a parsed policy value; `file` names it in error messages. Returns the typed policy. */
export function parseGatePolicy(value: unknown, file: string): GatePolicy {
  const fail = (path: string, msg: string): never => {
    throw new RgateError('gate_invalid', `${file} ${path}: ${msg}`, HINT);
  };
  // min/max before the schema: ajv's oneOf error would name the wrong field
  const rules = (value as { rules?: unknown } | null)?.rules;
  if (Array.isArray(rules)) {
    rules.forEach((r: unknown, i) => {
      if (r === null || typeof r !== 'object') return;
      const bounds = ['min', 'max', 'vs_base'].filter((k) => k in r).length;
      if (bounds !== 1) fail(`/rules/${i}`, 'needs exactly one of "min", "max" or "vs_base"');
    });
  }
  let policy: GatePolicy;
  try {
    policy = validateOrThrow(validateGatePolicySchema, value, { file }, HINT);
  } catch (e) {
    if (e instanceof RgateError) throw new RgateError('gate_invalid', e.message, e.hint);
    throw e;
  }
  policy.rules.forEach((r, i) => {
    if (!isGateMetricId(r.metric)) {
      fail(
        `/rules/${i}/metric`,
        `unknown metric ${JSON.stringify(r.metric)}` +
          ' (gate measures like "top1_useful_rate", ranking measures like "ndcg_cut.5", or "latency_ms")',
      );
    }
    if (r.watch_band && r.watch_band[0] > r.watch_band[1]) {
      fail(
        `/rules/${i}/watch_band`,
        `lower bound ${r.watch_band[0]} is above upper bound ${r.watch_band[1]}`,
      );
    }
    if (r.vs_base) checkVsBaseRule(r, `/rules/${i}`, fail);
    const isTiming = TIMING_METRICS.includes(r.metric);
    if (isTiming && !r.quantile) fail(`/rules/${i}/quantile`, `is required for ${r.metric}`);
    if (!isTiming && r.quantile) fail(`/rules/${i}/quantile`, `applies only to ${TIMING_METRICS.join(', ')}`);
    if (r.per === 'profile' && !isTiming) {
      fail(`/rules/${i}/per`, `per-profile rules apply only to ${TIMING_METRICS.join(', ')}`);
    }
    if (r.vs_baseline && r.max !== undefined) {
      fail(`/rules/${i}/max`, 'baseline rules state a minimum uplift or delta ("min")');
    }
  });
  const seen = new Set<string>();
  (policy.checklist ?? []).forEach((c, i) => {
    if (seen.has(c.id)) fail(`/checklist/${i}/id`, `duplicate checklist item ${JSON.stringify(c.id)}`);
    seen.add(c.id);
  });
  return policy;
}

/** Fields that mean nothing beside `vs_base`: its threshold is max_drop, judged by the server's paired test. */
const NOT_WITH_VS_BASE = [
  'vs_baseline',
  'watch_band',
  'min_denominator',
  'min_replays',
  'quantile',
  'per',
  'severity',
] as const;

function checkVsBaseRule(
  r: GatePolicy['rules'][number],
  at: string,
  fail: (p: string, m: string) => never,
): void {
  if (TIMING_METRICS.includes(r.metric))
    fail(
      `${at}/vs_base`,
      `${r.metric} has no per-query values for the paired test: a vs_base rule needs a measure each query has`,
    );
  for (const k of NOT_WITH_VS_BASE)
    if (r[k] !== undefined)
      fail(
        `${at}/${k}`,
        'does not apply to a vs_base rule (it passes or fails on max_drop and the paired test against the base run)',
      );
}

/**
 * Resolve a policy by path (relative to `root`) or by id: `gates/<id>.gate.json` in the project
 * (`root`) first, then among the gates bundled with rgate. Read and check it.
 * Example: loadGatePolicy('semantic-retrieval-v1', '/team/repo')
 */
export function loadGatePolicy(idOrPath: string, root: string): GatePolicy {
  return readGatePolicy(gatePolicyFile(idOrPath, root));
}

/** The file a gate id or path names (see loadGatePolicy); RgateError 'file_not_found' when none. */
export function gatePolicyFile(idOrPath: string, root: string): string {
  const looksLikePath = idOrPath.endsWith('.json') || idOrPath.includes('/') || idOrPath.includes('\\');
  if (looksLikePath) {
    const file = isAbsolute(idOrPath) ? idOrPath : resolve(root, idOrPath);
    if (!existsSync(file))
      throw new RgateError('file_not_found', `gate policy not found: ${file}`, 'check the path');
    return file;
  }
  const candidates = lookupRoots(root).map((r) => join(r, 'gates', `${idOrPath}.gate.json`));
  const found = candidates.find((f) => existsSync(f));
  if (found) return found;
  throw new RgateError(
    'file_not_found',
    `gate policy not found: ${idOrPath} (looked for ${candidates.join(' and ')})`,
    `a gate id names gates/<id>.gate.json in your project or one bundled with rgate: ${bundledGateIds().join(', ')}`,
  );
}

/** The ids of the gate policies shipped with rgate, sorted. */
export function bundledGateIds(): string[] {
  const dir = join(PACKAGE_ROOT, 'gates');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.gate.json'))
    .map((f) => f.slice(0, -'.gate.json'.length))
    .sort();
}

function readGatePolicy(file: string): GatePolicy {
  const value = parseJsonText(readFileSync(file, 'utf8'), file, {
    code: 'gate_invalid',
    hint: HINT,
    locate: firstJsonErrorOffset,
  });
  return parseGatePolicy(value, file);
}

/** Where strict JSON first goes wrong, for the errors JSON.parse gives without a position. */
function firstJsonErrorOffset(text: string): number | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset;
}
