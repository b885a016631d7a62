import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../../test/fixtures/sample-report.js';
import { unpackedReport, validatePackedReportSchema, validateReportSchema } from '../contracts/report.js';
import type { QueryOutcome, Report } from '../documents/index.js';
import { packReport, unpackReport } from './packed-report.js';

/** A report of `n` queries made from the sample's, each field varied so every column has content. */
function large(n: number): Report {
  const r = sampleReport('fail');
  const base = r.queries;
  const queries: QueryOutcome[] = Array.from({ length: n }, (_, i) => {
    const q = structuredClone(base[i % base.length]!);
    q.query_id = `q${String(i).padStart(5, '0')}`;
    q.text = `${q.text} ${i}`;
    if (i % 7 === 0) delete q.measures;
    else q.measures = { 'ndcg_cut.5': i / 7, 'a/b~c': 1 / (i + 3), P_5: 0.2 };
    if (i % 11 === 0) q.measures = {};
    if (i % 5 === 0) q.tags = [];
    return q;
  });
  const failing_queries = queries.filter((_, i) => i % 3 === 0).map((q) => structuredClone(q));
  const per_query = queries.map((q, i) => ({
    query_id: q.query_id,
    fingerprints: i % 13 === 0 ? [sha(`${i}a`), sha(`${i}b`)] : [sha(`${i}`)],
  }));
  return { ...r, queries, failing_queries, replay_proof: { ...r.replay_proof, per_query } };
}

const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('packed report', () => {
  it('unpacks to exactly the report it packed (3,000 queries), and is a valid packed report', () => {
    const r = large(3000);
    expect(validateReportSchema(r)).toBe(true);
    const packed = packReport(r)!;
    expect(validatePackedReportSchema(plain(packed))).toBe(true);
    expect(packed.replay_proof.per_query).toEqual([]);
    expect(packed.query_table.fingerprint_form).toBe('sha256-base64url');
    expect(packed.query_table.failing).toHaveLength(r.failing_queries.length);
    const back = unpackedReport(plain(packed));
    expect(validateReportSchema(back)).toBe(true);
    expect(plain(back)).toEqual(plain(r));
    // a third of the bytes or less: the field names and the failing queries are not repeated
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(r).length / 2);
  });

  it('keeps a replay proof that does not list the queries in order as it is', () => {
    const r = large(1200);
    r.replay_proof.per_query = r.replay_proof.per_query.slice(1);
    const packed = packReport(r)!;
    expect(packed.query_table.fingerprints).toBeUndefined();
    expect(packed.replay_proof.per_query).toHaveLength(1199);
    expect(plain(unpackReport(packed))).toEqual(plain(r));
  });

  it('keeps fingerprints that are not sha256 hex as they are', () => {
    const r = large(1200);
    r.replay_proof.per_query[5]!.fingerprints = ['missing', r.replay_proof.per_query[5]!.fingerprints[0]!];
    const packed = packReport(r)!;
    expect(packed.query_table.fingerprint_form).toBeUndefined();
    expect(plain(unpackReport(packed))).toEqual(plain(r));
  });

  it('is not made when a failing query differs from its entry in the query list', () => {
    const r = large(1200);
    r.failing_queries[0] = { ...r.failing_queries[0]!, text: 'another text' };
    expect(packReport(r)).toBeUndefined();
    const unknown = large(1200);
    unknown.failing_queries.push({ ...unknown.queries[0]!, query_id: 'nowhere' });
    expect(packReport(unknown)).toBeUndefined();
  });

  it('refuses a damaged packed report naming where, never unpacking it partly', () => {
    const packed = plain(packReport(large(1200))) as {
      query_table: { columns: Record<string, unknown>; count: number };
    };
    const short = structuredClone(packed);
    (short.query_table.columns.query_id as unknown[]).pop();
    expect(() => unpackedReport(short, 'r.json')).toThrow(
      /query_table\/columns\/query_id: 1199 values for 1200/,
    );
    const noSchema = structuredClone(packed) as Record<string, unknown>;
    delete noSchema.suite;
    expect(() => unpackedReport(noSchema, 'r.json')).toThrow(
      /r.json does not match the packed report schema/,
    );
    const badCode = structuredClone(packed);
    (badCode.query_table.columns.kind as { codes: number[] }).codes[0] = 99;
    expect(() => unpackedReport(badCode, 'r.json')).toThrow(/code 99 is past its/);
    const badPrint = structuredClone(packed) as unknown as { query_table: { fingerprints: string[] } };
    badPrint.query_table.fingerprints[3] = 'abc';
    expect(() => unpackedReport(badPrint, 'r.json')).toThrow(/abc is not 32 bytes in base64url/);
  });

  it('leaves anything that is not a packed report as it is', () => {
    const r = sampleReport('pass');
    expect(unpackedReport(r)).toBe(r);
    expect(unpackedReport(null)).toBe(null);
  });
});
