/**
 * Residual risks of a Gate C closeout, read from a JSON file. A risk nobody owns or nobody has to
 * close by a date is not a residual, it is a hole: such entries are refused with their JSON path.
 */
import { basename } from 'node:path';
import { RgateError } from '../src/core/errors.js';
import { readJsonFile } from '../src/core/jsonl.js';
import type { ResidualRisk } from '../src/documents/index.js';

const HINT =
  'each residual is {"id": "R1", "risk": "...", "owner": "name", "due": "YYYY-MM-DD", "mitigation"?: "...", "severity"?: "..."}';

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * Check a parsed residuals value: `[...]` or `{"residuals": [...]}`. Errors name the file and the
 * JSON path: `residuals.json /residuals/2/owner: every residual risk needs an owner`.
 */
export function parseResiduals(value: unknown, file: string): ResidualRisk[] {
  const wrapped = value !== null && typeof value === 'object' && !Array.isArray(value);
  const list = wrapped ? (value as { residuals?: unknown }).residuals : value;
  const prefix = wrapped ? '/residuals' : '';
  const fail = (path: string, msg: string): never => {
    throw new RgateError('input_invalid', `${file} ${path || '/'}: ${msg}`, HINT);
  };
  if (!Array.isArray(list)) fail(prefix, 'expected an array of residual risks (or {"residuals": [...]})');
  const seen = new Set<string>();
  return (list as unknown[]).map((item, i) => {
    const at = `${prefix}/${i}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) fail(at, 'expected an object');
    const r = item as Record<string, unknown>;
    const str = (key: string, required: boolean, why: string): string | undefined => {
      const v = r[key];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
        if (required) fail(`${at}/${key}`, why);
        return undefined;
      }
      if (typeof v !== 'string') fail(`${at}/${key}`, 'must be a string');
      return (v as string).trim();
    };
    const risk =
      str('risk', false, '') ?? str('description', true, 'every residual risk needs a description ("risk")')!;
    const owner = str('owner', true, 'every residual risk needs an owner')!;
    const due = str('due', true, 'every residual risk needs a due date (YYYY-MM-DD)')!;
    if (!isDate(due)) fail(`${at}/due`, `"${due}" is not a date YYYY-MM-DD`);
    const id = str('id', false, '') ?? `R${i + 1}`;
    if (seen.has(id)) fail(`${at}/id`, `duplicate residual id "${id}"`);
    seen.add(id);
    const mitigation = str('mitigation', false, '');
    const severity = str('severity', false, '');
    return { id, risk, owner, due, ...(mitigation ? { mitigation } : {}), ...(severity ? { severity } : {}) };
  });
}

/** Read and check a residuals file. */
export function readResiduals(path: string): ResidualRisk[] {
  return parseResiduals(readJsonFile(path), basename(path));
}
