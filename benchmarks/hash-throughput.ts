/**
 * Hash throughput on a generated corpus (default 100 MB; HASH_BENCH_MB to change), written to
 * os.tmpdir() and deleted afterwards. Measures, in one run on the same file:
 *   - raw-byte sha256 (src/core/hash.ts sha256File, one stream)        goal >= 1 GiB/s
 *   - canonical-content hashing (src/snapshot hashJsonlFile: parse + canonical JSON + one sha256)
 *   - `sha256sum` on the same file, when the binary exists (the reference for the ratio)
 * Best of N passes after a warm-up read, so the page cache is hot for every contender alike.
 * Run: npx tsc -p . && node dist/benchmarks/hash-throughput.js
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sha256File } from '../src/core/hash.js';
import { createPrng } from '../src/core/prng.js';
import { hashJsonlFile } from '../src/snapshot/content-hash.js';
import { loadFixtureSet, verifyFixtureSet, writeFreeze } from '../src/snapshot/index.js';
import { isMain, writeBenchResult, type BenchResult } from './_common.js';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** A corpus JSONL of about `bytes` bytes: pseudo-words, deterministic (seeded), ~1.5 KB per record. */
function generateCorpus(path: string, bytes: number): number {
  const rnd = createPrng(20261122);
  const vocab = Array.from({ length: 5000 }, (_, i) => {
    let w = '';
    for (let k = 0, n = 3 + (i % 8); k < n; k++) w += String.fromCharCode(97 + rnd.int(26));
    return w;
  });
  const fd = openSync(path, 'w');
  let written = 0;
  let id = 0;
  let batch: string[] = [];
  try {
    while (written < bytes) {
      const words: string[] = [];
      for (let k = 0, n = 150 + rnd.int(150); k < n; k++) words.push(vocab[rnd.int(vocab.length)]!);
      const rec = {
        id: `doc-${id}`,
        source_path: `docs/${id % 100}/doc-${id}.md`,
        title: words.slice(0, 6).join(' '),
        text: words.join(' '),
        kind: id % 3 === 0 ? 'tactical' : 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
        evidence: (id % 10) / 10,
      };
      const line = JSON.stringify(rec) + '\n';
      batch.push(line);
      written += Buffer.byteLength(line);
      id++;
      if (batch.length === 2000) {
        writeSync(fd, batch.join(''));
        batch = [];
      }
    }
    if (batch.length) writeSync(fd, batch.join(''));
  } finally {
    closeSync(fd);
  }
  return id;
}

async function best(
  passes: number,
  f: () => Promise<string> | string,
): Promise<{ ms: number; hash: string }> {
  let ms = Infinity;
  let hash = '';
  for (let i = 0; i < passes; i++) {
    const t = performance.now();
    hash = await f();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, hash };
}

function sha256sum(path: string): { ms: number; hash: string } | null {
  let ms = Infinity;
  let hash = '';
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = spawnSync('sha256sum', [path], { encoding: 'utf8' });
    const dt = performance.now() - t;
    if (r.error || r.status !== 0) return null;
    ms = Math.min(ms, dt);
    hash = `sha256:${r.stdout.split(/\s+/)[0]}`;
  }
  return { ms, hash };
}

export async function run(): Promise<BenchResult> {
  const mb = Number(process.env.HASH_BENCH_MB ?? 100);
  const dir = mkdtempSync(join(tmpdir(), 'rgate-hash-bench-'));
  const path = join(dir, 'corpus.jsonl');
  try {
    const records = generateCorpus(path, mb * 1e6);
    const size = statSync(path).size;
    await sha256File(path); // warm the page cache
    const raw = await best(3, () => sha256File(path));
    const canon = await best(2, () => hashJsonlFile(path, 'corpus.jsonl').sha256);
    const ref = sha256sum(path);
    // verify of an unchanged set: raw bytes match freeze.json's raw_sha256, so nothing is parsed
    writeFileSync(join(dir, 'queries.jsonl'), '');
    writeFileSync(join(dir, 'config.json'), '{}');
    writeFreeze(dir, { frozenOn: '2026-01-01' });
    const verify = await best(3, () => (verifyFixtureSet(dir).ok ? 'ok' : 'mismatch'));
    // a run's load: parse + validate + normalise every record; unchanged bytes skip re-serialising
    const load = await best(1, () => String(loadFixtureSet(dir).corpus.length));
    const gib = (ms: number): number => Number((size / GIB / (ms / 1000)).toFixed(3));
    const figures: BenchResult['figures'] = {
      file_bytes: size,
      records,
      raw_sha256_ms: Number(raw.ms.toFixed(1)),
      raw_sha256_gib_s: gib(raw.ms),
      canonical_ms: Number(canon.ms.toFixed(1)),
      canonical_mib_s: Number((size / MIB / (canon.ms / 1000)).toFixed(1)),
      canonical_vs_raw: Number((raw.ms / canon.ms).toFixed(3)),
      sha256sum_ms: ref ? Number(ref.ms.toFixed(1)) : null,
      sha256sum_gib_s: ref ? gib(ref.ms) : null,
      raw_vs_sha256sum: ref ? Number((ref.ms / raw.ms).toFixed(3)) : null,
      canonical_vs_sha256sum: ref ? Number((ref.ms / canon.ms).toFixed(3)) : null,
      raw_hash_matches_sha256sum: ref ? ref.hash === raw.hash : null,
      verify_unchanged_ms: Number(verify.ms.toFixed(1)),
      verify_unchanged_gib_s: gib(verify.ms),
      verify_ok: verify.hash === 'ok',
      load_unchanged_ms: Number(load.ms.toFixed(1)),
      load_unchanged_mib_s: Number((size / MIB / (load.ms / 1000)).toFixed(1)),
      node: process.version,
    };
    const ok =
      (figures.raw_sha256_gib_s as number) >= 1 &&
      figures.raw_hash_matches_sha256sum !== false &&
      figures.verify_ok === true;
    process.stdout.write(
      `corpus ${(size / 1e6).toFixed(1)} MB, ${records} records (${path})\n` +
        `  raw sha256 (one stream)      ${raw.ms.toFixed(0)} ms  ${figures.raw_sha256_gib_s} GiB/s  (goal >= 1 GiB/s)\n` +
        `  canonical content hash       ${canon.ms.toFixed(0)} ms  ${figures.canonical_mib_s} MiB/s  (${figures.canonical_vs_raw}x raw)\n` +
        `  verify, unchanged set        ${verify.ms.toFixed(0)} ms  ${figures.verify_unchanged_gib_s} GiB/s  (raw fast path)\n` +
        `  loadFixtureSet, unchanged    ${load.ms.toFixed(0)} ms  ${figures.load_unchanged_mib_s} MiB/s  (parse + ajv + normalise)\n` +
        (ref
          ? `  sha256sum (reference)        ${ref.ms.toFixed(0)} ms  ${figures.sha256sum_gib_s} GiB/s\n` +
            `  ratio vs sha256sum: raw ${figures.raw_vs_sha256sum}x, canonical ${figures.canonical_vs_sha256sum}x (>1 = faster); same hash: ${figures.raw_hash_matches_sha256sum}\n`
          : '  sha256sum not available: no reference ratio\n') +
        `  ${ok ? 'OK' : 'MISSED'}\n`,
    );
    const result: BenchResult = {
      name: 'hash-throughput',
      ok,
      figures,
      goals: {
        raw_sha256_gib_s: '>= 1 (100 MB corpus)',
        canonical: 'reported, no goal (parses every line)',
        verify_unchanged: 'reported (raw fast path)',
      },
    };
    writeBenchResult('hash-throughput', result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
