/**
 * Engine quality check on CACM against Anserini's published BM25 regression (k1=0.9, b=0.4, Lucene's
 * English stop set + Porter, 1000 hits per topic; MAP 0.3123, P@30 0.1942 with trec_eval). Goal: both
 * within 0.01. The qrels keep the shipped unpadded ids (`CACM-46`): those judgments can never match a
 * retrieved `CACM-0046`, exactly as in the published figures.
 *
 * Data: fixtures/cacm through the snapshot layer when the set exists; otherwise a temporary
 * conversion of /work/shared/datasets/cacm (or $CACM_DIR) made in os.tmpdir() by this script
 * (document text = the `<pre>` body, as the snapshot importer does).
 * Metrics follow trec_eval: the run is re-sorted by score desc then docno desc; AP's denominator is
 * every relevant judgment of the topic (matched or not); the mean is over topics with judgments
 * (trec_eval's default, 52 of the 64 topics); P@30 counts relevant in the first 30 over 30.
 * Both length encodings are run: `exact` (the engine default) and `lucene` (one-byte SmallFloat norms).
 *
 * Run: npx tsc -p . && node dist/benchmarks/engine-cacm.js
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { CorpusRecord, QueryRecord } from '../src/documents/index.js';
import { createEngine } from '../src/engine/index.js';
import { isMain, ROOT, writeBenchResult, type BenchResult } from './_common.js';

const root = ROOT;
const PUBLISHED = { map: 0.3123, p30: 0.1942 };

interface Cacm {
  source: string;
  corpus: CorpusRecord[];
  queries: QueryRecord[];
}

/** Minimal ustar reader: enough for a gzip'd tar of regular files. */
function untar(buf: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  let off = 0;
  while (off + 512 <= buf.length) {
    const header = buf.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 48);
    off += 512;
    if (type === '0' || type === '\0')
      out.push({ name: prefix ? `${prefix}/${name}` : name, data: buf.subarray(off, off + size) });
    off += Math.ceil(size / 512) * 512;
  }
  return out;
}

function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e.startsWith('#')) {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return named[e.toLowerCase()] ?? m;
  });
}

/** Temporary conversion of the shared CACM files (used only when fixtures/cacm does not exist). */
function convertShared(dir: string): Cacm {
  const corpus: CorpusRecord[] = [];
  for (const f of untar(gunzipSync(readFileSync(join(dir, 'cacm.tar.gz'))))) {
    const m = /([^/]+)\.html$/.exec(f.name);
    if (!m) continue;
    const html = f.data.toString('utf8');
    const pres = [...html.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre\s*>/gi)].map((x) => x[1] as string);
    const text = decodeEntities(pres.length ? pres.join('\n') : html.replace(/<[^>]+>/g, ' '))
      .replace(/\r\n?/g, '\n')
      .trim();
    corpus.push({
      id: m[1] as string,
      source_path: f.name,
      text,
      kind: 'canonical',
      captured_at: '2008-09-15T00:00:00Z',
    });
  }
  const qrels = new Map<string, Record<string, number>>();
  for (const line of readFileSync(join(dir, 'qrels.cacm.txt'), 'utf8').split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length < 4) continue;
    const q = qrels.get(p[0] as string) ?? {};
    q[p[2] as string] = Number(p[3]);
    qrels.set(p[0] as string, q);
  }
  const queries: QueryRecord[] = [];
  const topics = readFileSync(join(dir, 'topics.cacm.txt'), 'utf8');
  for (const m of topics.matchAll(/<DOC>\s*<DOCNO>\s*(\S+)\s*<\/DOCNO>([\s\S]*?)<\/DOC>/g)) {
    const id = m[1] as string;
    const q: QueryRecord = { query_id: id, text: (m[2] as string).trim() };
    const j = qrels.get(id);
    if (j) q.qrels = j;
    queries.push(q);
  }
  return { source: `temporary conversion of ${dir}`, corpus, queries };
}

async function loadCacm(): Promise<Cacm> {
  const fixture = join(root, 'fixtures/cacm');
  if (existsSync(join(fixture, 'corpus.jsonl'))) {
    const snap = (await import('../src/snapshot/index.js')) as typeof import('../src/snapshot/index.js');
    let suite;
    try {
      suite = snap.loadFixtureSet(fixture);
    } catch {
      suite = snap.loadFixtureSet(fixture, { verify: false });
    }
    return { source: 'fixtures/cacm', corpus: [...suite.corpus], queries: [...suite.queries] };
  }
  return convertShared(process.env.CACM_DIR ?? '/work/shared/datasets/cacm');
}

/** trec_eval order: score desc, then docno desc (strcmp). */
function trecOrder(hits: { id: string; score: number }[]): { id: string; score: number }[] {
  return hits.slice().sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function averagePrecision(ranked: string[], rel: Record<string, number>): number {
  const nRel = Object.values(rel).filter((g) => g > 0).length;
  if (nRel === 0) return 0;
  let hits = 0;
  let sum = 0;
  ranked.forEach((id, i) => {
    if ((rel[id] ?? 0) > 0) {
      hits++;
      sum += hits / (i + 1);
    }
  });
  return sum / nRel;
}

function precisionAt(ranked: string[], rel: Record<string, number>, k: number): number {
  let hits = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if ((rel[ranked[i] as string] ?? 0) > 0) hits++;
  return hits / k;
}

/** The published top-30 run, for an agreement figure (how many of Anserini's top-30 we also rank top-30). */
function readReferenceRun(dir: string): Map<string, string[]> | null {
  const path = join(dir, 'runs/cacm-bm25.txt');
  if (!existsSync(path)) return null;
  const m = new Map<string, string[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length < 6) continue;
    const list = m.get(p[0] as string) ?? [];
    list.push(p[2] as string);
    m.set(p[0] as string, list);
  }
  return m;
}

export function evaluate(
  data: Cacm,
  lengthNorm: 'exact' | 'lucene',
  reference: Map<string, string[]> | null,
): {
  map: number;
  p30: number;
  judged: number;
  topics: number;
  top30Overlap: number | null;
  buildMs: number;
  searchMs: number;
} {
  const config = resolveConfig({
    mode: 'bm25',
    bm25: { k1: 0.9, b: 0.4, formula: 'lucene', length_norm: lengthNorm },
    analyzer: { lowercase: true, stopwords: true, stemmer: 'porter' },
  });
  const t0 = performance.now();
  const engine = createEngine(data.corpus, config);
  const t1 = performance.now();
  let apSum = 0;
  let pSum = 0;
  let judged = 0;
  let overlap = 0;
  let overlapDen = 0;
  for (const q of data.queries) {
    const hits = trecOrder(engine.search(q.text, 1000));
    const ids = hits.map((h) => h.id);
    const ref = reference?.get(q.query_id);
    if (ref) {
      const mine = new Set(ids.slice(0, 30));
      overlap += ref.filter((id) => mine.has(id)).length;
      overlapDen += ref.length;
    }
    if (!q.qrels || !Object.values(q.qrels).some((g) => g > 0)) continue;
    judged++;
    apSum += averagePrecision(ids, q.qrels);
    pSum += precisionAt(ids, q.qrels, 30);
  }
  const t2 = performance.now();
  return {
    map: apSum / judged,
    p30: pSum / judged,
    judged,
    topics: data.queries.length,
    top30Overlap: reference ? overlap / overlapDen : null,
    buildMs: t1 - t0,
    searchMs: t2 - t1,
  };
}

export async function run(): Promise<BenchResult> {
  const data = await loadCacm();
  const reference = readReferenceRun(process.env.CACM_DIR ?? '/work/shared/datasets/cacm');
  const exact = evaluate(data, 'exact', reference);
  const lucene = evaluate(data, 'lucene', reference);
  const r4 = (x: number): number => Number(x.toFixed(4));
  const figures: BenchResult['figures'] = {
    source: data.source,
    documents: data.corpus.length,
    topics: exact.topics,
    judged_topics: exact.judged,
    settings: 'bm25 lucene formula, k1=0.9 b=0.4, lowercase + Lucene English stopwords + Porter, 1000 hits',
    map_exact_lengths: r4(exact.map),
    p30_exact_lengths: r4(exact.p30),
    map_lucene_lengths: r4(lucene.map),
    p30_lucene_lengths: r4(lucene.p30),
    published_map: PUBLISHED.map,
    published_p30: PUBLISHED.p30,
    map_delta_exact: r4(exact.map - PUBLISHED.map),
    p30_delta_exact: r4(exact.p30 - PUBLISHED.p30),
    map_delta_lucene: r4(lucene.map - PUBLISHED.map),
    p30_delta_lucene: r4(lucene.p30 - PUBLISHED.p30),
    top30_overlap_with_anserini_run_exact: exact.top30Overlap === null ? null : r4(exact.top30Overlap),
    top30_overlap_with_anserini_run_lucene: lucene.top30Overlap === null ? null : r4(lucene.top30Overlap),
    index_build_ms: Math.round(exact.buildMs),
    search_64x1000_ms: Math.round(exact.searchMs),
  };
  const within = (x: number): boolean => Math.abs(x) <= 0.01;
  const ok =
    within(exact.map - PUBLISHED.map) &&
    within(exact.p30 - PUBLISHED.p30) &&
    within(lucene.map - PUBLISHED.map) &&
    within(lucene.p30 - PUBLISHED.p30);
  const goals = { map: 'within 0.01 of 0.3123', p30: 'within 0.01 of 0.1942' };
  const result: BenchResult = { name: 'engine-cacm', ok, figures, goals };
  process.stdout.write(
    `CACM (${data.source}; ${exact.judged}/${exact.topics} topics judged)\n` +
      `  exact lengths : MAP ${r4(exact.map)} (Δ ${r4(exact.map - PUBLISHED.map)})  P@30 ${r4(exact.p30)} (Δ ${r4(exact.p30 - PUBLISHED.p30)})\n` +
      `  lucene lengths: MAP ${r4(lucene.map)} (Δ ${r4(lucene.map - PUBLISHED.map)})  P@30 ${r4(lucene.p30)} (Δ ${r4(lucene.p30 - PUBLISHED.p30)})\n` +
      `  published     : MAP ${PUBLISHED.map}  P@30 ${PUBLISHED.p30}; top-30 overlap with Anserini's run: exact ${figures.top30_overlap_with_anserini_run_exact}, lucene ${figures.top30_overlap_with_anserini_run_lucene}\n` +
      `  ${ok ? 'OK' : 'MISSED'}: both within 0.01\n`,
  );
  writeBenchResult('engine-cacm', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
