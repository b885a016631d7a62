/**
 * The WebAssembly run scanner (run-scan.wat): RunBuilder.feed hands it a chunk first. It scans at
 * compiled speed from the first byte, where the JS loop spends a small run's time waiting for the
 * JIT (a 50,000-line run: ~45 ms in JS, ~10 ms here, both cold). It only finds fields, hashes,
 * copies docnos and parses plain scores; feed() interns the qids and stores the entries, and reads
 * the chunk itself whenever the scanner gives up (a line feed() must report, no WebAssembly).
 */
import { RUN_SCAN_WASM } from './run-scan-wasm.js';

/** The bytes the scanner treats as blanks (1) and newline (2): run-parse.ts passes its own table. */
export interface ScanTables {
  blank: Uint8Array;
  powersOfTen: readonly number[];
}

// the project's lib (ES2022, no DOM) declares no WebAssembly: the few parts used here
interface WasmGlobal {
  value: number;
}
interface ScanExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  scan: (...args: number[]) => number;
  qrels: (...args: number[]) => number;
  finalize: (...args: number[]) => void;
  qids: WasmGlobal;
  group: (...args: number[]) => number;
  duplicates: (...args: number[]) => number;
  dupFirst: WasmGlobal;
  lines: WasmGlobal;
  arenaUsed: WasmGlobal;
  slow: WasmGlobal;
  rs: WasmGlobal;
  re: WasmGlobal;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** One scanned chunk; the views are into the scanner's memory, valid until the next call. */
export interface Scanned {
  n: number;
  /** the chunk's distinct qids in first-appearance order: (start, end, hash) triples into the chunk */
  qids: Int32Array;
  /**
   * Each entry's qid (an index into qids), docno offset (into arena) and line (from 1 at the chunk's
   * first line) until finalize(), which makes them the builder's: qid index, arena offset, line.
   */
  qidIdx: Int32Array;
  dOff: Int32Array;
  line: Int32Array;
  h: Int32Array;
  dLen: Int32Array;
  scores: Float64Array;
  /** entries whose score is not plain digits: (entry, start, end) triples into the chunk */
  slow: Int32Array;
  arena: Uint8Array;
  /** lines in the chunk: data, blank and comment */
  lines: number;
  /** the last entry's run id [rs, re) in the chunk */
  rs: number;
  re: number;
  finalize(qidMap: Int32Array, arenaBase: number, lineBase: number): void;
}

/** Input starts here; below: the byte classes (0-255) and the powers of ten (256-439). */
const INPUT = 1024;

let scanner: ScanExports | null | undefined;
let enabled = process.env.RGATE_RUN_SCANNER !== 'off';

/**
 * Whether feed() and finish() use the scanner (default yes; RGATE_RUN_SCANNER=off says no): the
 * tests compare both paths on the same input.
 * @internal a switch for tests
 */
export function useRunScanner(on: boolean): void {
  enabled = on;
}

function instance(tables?: ScanTables): ScanExports | null {
  if (!enabled) return null;
  if (scanner !== undefined || !tables) return scanner ?? null;
  try {
    if (!wasm) throw new Error('no WebAssembly');
    const bytes = Buffer.from(RUN_SCAN_WASM, 'base64');
    scanner = new wasm.Instance(new wasm.Module(bytes), {}).exports as ScanExports;
    const u8 = new Uint8Array(scanner.memory.buffer);
    u8.set(tables.blank, 0);
    new Float64Array(scanner.memory.buffer, 256, 23).set(tables.powersOfTen.slice(0, 23));
  } catch {
    // no WebAssembly here (e.g. --jitless): feed() reads every chunk itself
    scanner = null;
  }
  return scanner;
}

/** Consecutive regions of the scanner's memory from `at`, of the byte sizes given: each one's start, then the end. */
function layout(at: number, sizes: readonly number[]): number[] {
  const starts = [at];
  for (const size of sizes) starts.push((at += size));
  return starts;
}

/** Scanner memory above this is let go after the call that needed it (an instance never shrinks). */
const KEEP_BYTES = 32 << 20;

function release(w: ScanExports): void {
  if (w.memory.buffer.byteLength > KEEP_BYTES) scanner = undefined;
}

/** The memory, grown to at least `bytes`; undefined when it cannot grow (the JS path reads then). */
function reserve(w: ScanExports, bytes: number): ArrayBuffer | undefined {
  const have = w.memory.buffer.byteLength;
  try {
    if (bytes > have) w.memory.grow(Math.ceil((bytes - have) / 65536));
  } catch {
    return undefined;
  }
  return w.memory.buffer;
}

/**
 * Scan buf[0, end) (whole lines); undefined when feed() must read it: a line with fewer than six
 * fields (feed() reports it), or no WebAssembly.
 */
export function scanRun(buf: Uint8Array, end: number, tables: ScanTables): Scanned | undefined {
  const w = instance(tables);
  if (!w) return undefined;
  // a data line is at least 11 bytes ("a b c d 1 f"), so this many entries always fit
  const cap = Math.floor(end / 11) + 2;
  // the qid table: small (a fresh page costs a fault), four times larger while a chunk overflows it,
  // and from then on as large as the last chunk needed (a shuffled run's every chunk holds most of
  // its queries: each would be scanned twice)
  for (let qtab = qidTableSize; ; qtab <<= 2) {
    const r = scanWith(w, buf, end, cap, qtab);
    if (r === 'more qids') continue;
    qidTableSize = qtab;
    return r;
  }
}

let qidTableSize = 1 << 12;

function scanWith(
  w: ScanExports,
  buf: Uint8Array,
  end: number,
  cap: number,
  qtab: number,
): Scanned | undefined | 'more qids' {
  const [pScore, pLocal, pQid, pQtab, pH, pDoff, pDlen, pLine, pSlow, pArena] = layout(
    (INPUT + end + 7) & ~7,
    [8 * cap, 4 * cap, 12 * cap, 4 * qtab, 4 * cap, 4 * cap, 4 * cap, 4 * cap, 12 * cap],
  ) as [number, number, number, number, number, number, number, number, number, number];
  // finalize()'s qid map (at most one qid an entry) after the arena's room
  const pMap = (pArena + end + 3) & ~3;
  const mem = reserve(w, pMap + 4 * cap);
  if (!mem) return undefined;
  new Uint8Array(mem).set(buf.subarray(0, end), INPUT);
  const n = w.scan(
    INPUT,
    INPUT + end,
    cap,
    pLocal,
    pQid,
    pQtab,
    qtab - 1,
    pH,
    pDoff,
    pDlen,
    pLine,
    pScore,
    pSlow,
    pArena,
  );
  release(w);
  if (n === -3) return 'more qids';
  if (n < 0) return undefined;
  const qids = new Int32Array(mem, pQid, 3 * w.qids.value);
  for (let k = 0; k < qids.length; k += 3) {
    qids[k]! -= INPUT;
    qids[k + 1]! -= INPUT;
  }
  return {
    n,
    qids,
    qidIdx: new Int32Array(mem, pLocal, n),
    dOff: new Int32Array(mem, pDoff, n),
    line: new Int32Array(mem, pLine, n),
    h: new Int32Array(mem, pH, n),
    dLen: new Int32Array(mem, pDlen, n),
    scores: new Float64Array(mem, pScore, n),
    slow: new Int32Array(mem, pSlow, 3 * w.slow.value),
    arena: new Uint8Array(mem, pArena, w.arenaUsed.value),
    lines: w.lines.value,
    rs: w.rs.value,
    re: w.re.value,
    finalize(qidMap, arenaBase, lineBase) {
      new Int32Array(mem, pMap, qidMap.length).set(qidMap);
      w.finalize(n, pLocal, pMap, pDoff, arenaBase, pLine, lineBase);
    },
  };
}

/** One scanned piece of a qrels file; the views are into the scanner's memory, valid until the next call. */
export interface ScannedQrels {
  n: number;
  /** per entry: document id, docno offset and length (in the DocTable's arena), hash, grade, line */
  id: Int32Array;
  dOff: Int32Array;
  dLen: Int32Array;
  h: Int32Array;
  rel: Int32Array;
  line: Int32Array;
  /** each change of qid: (first entry, qid start, qid end, qid hash), offsets into the piece */
  runs: Int32Array;
  /** the docnos' bytes, to go at the DocTable's arena's end */
  arena: Uint8Array;
  /** lines in the piece: data, blank and comment */
  lines: number;
}

/** Where a piece's entries go: the ids, arena offset and line number they start from. */
export interface QrelsBases {
  id: number;
  arena: number;
  line: number;
}

/**
 * Scan the qrels lines of buf[from, to) (whole lines); undefined when parseQrels must read them: a
 * line to report, a grade outside the fast path (optional minus, 1 to 9 digits), no WebAssembly.
 */
export function scanQrels(
  buf: Uint8Array,
  from: number,
  to: number,
  bases: QrelsBases,
  tables: ScanTables,
): ScannedQrels | undefined {
  const w = instance(tables);
  if (!w) return undefined;
  const len = to - from;
  // a judgment line is at least 8 bytes ("a b c 1" and a newline), the last one 7
  const cap = Math.floor(len / 7) + 2;
  // per entry: id, docno offset and length, hash, grade, line; then the runs and the docnos
  const [pId, pDoff, pDlen, pH, pRel, pLine, pRuns, pArena] = layout((INPUT + len + 3) & ~3, [
    4 * cap,
    4 * cap,
    4 * cap,
    4 * cap,
    4 * cap,
    4 * cap,
    16 * cap,
  ]) as [number, number, number, number, number, number, number, number];
  const mem = reserve(w, pArena + len);
  if (!mem) return undefined;
  new Uint8Array(mem).set(buf.subarray(from, to), INPUT);
  const n = w.qrels(
    INPUT,
    INPUT + len,
    pId,
    pDoff,
    pDlen,
    pH,
    pRel,
    pLine,
    pRuns,
    pArena,
    bases.id,
    bases.arena,
    bases.line,
  );
  release(w);
  if (n < 0) return undefined;
  return {
    n,
    id: new Int32Array(mem, pId, n),
    dOff: new Int32Array(mem, pDoff, n),
    dLen: new Int32Array(mem, pDlen, n),
    h: new Int32Array(mem, pH, n),
    rel: new Int32Array(mem, pRel, n),
    line: new Int32Array(mem, pLine, n),
    runs: new Int32Array(mem, pRuns, 4 * w.qids.value),
    arena: new Uint8Array(mem, pArena, w.arenaUsed.value),
    lines: w.lines.value,
  };
}

/** A parsed run's entries grouped by query, and the first duplicate found, as RunBuilder.finish needs. */
export interface Grouped {
  /** counts[q] = first entry of query q (first-appearance order), counts[nq] = all entries */
  counts: Int32Array;
  /** the arrays in query order (copies), or undefined when the entries were grouped already */
  arrays?: {
    hashes: Int32Array;
    docOff: Int32Array;
    docLen: Int32Array;
    lineOf: Int32Array;
    scores: Float64Array;
  };
  /** [later, earlier] entries (grouped positions) with the same docno in one query */
  duplicate?: [number, number];
}

/**
 * Group n entries by query (stable counting sort) and look for a document retrieved twice in a query:
 * finish()'s two passes, at compiled speed. Undefined when the scanner never ran (no WebAssembly).
 */
export function groupRun(
  n: number,
  nq: number,
  e: {
    qidIdx: Int32Array;
    hashes: Int32Array;
    docOff: Int32Array;
    docLen: Int32Array;
    lineOf: Int32Array;
    scores: Float64Array;
    arena: Uint8Array;
  },
  tables: ScanTables,
): Grouped | undefined {
  const w = instance(tables);
  if (!w) return undefined;
  let size = 16;
  while (size < n * 2) size <<= 1;
  const pS = (INPUT + 7) & ~7;
  const oS = pS + 8 * n;
  const pQ = oS + 8 * n;
  const pH = pQ + 4 * n;
  const pO = pH + 4 * n;
  const pL = pO + 4 * n;
  const pN = pL + 4 * n;
  const oH = pN + 4 * n;
  const oO = oH + 4 * n;
  const oL = oO + 4 * n;
  const oN = oL + 4 * n;
  const pCounts = oN + 4 * n;
  const pPos = pCounts + 4 * (nq + 1);
  const pSlots = pPos + 4 * nq;
  const pArena = pSlots + 4 * size;
  const mem = reserve(w, pArena + e.arena.length);
  if (!mem) return undefined;
  new Float64Array(mem, pS, n).set(e.scores.subarray(0, n));
  new Int32Array(mem, pQ, n).set(e.qidIdx.subarray(0, n));
  new Int32Array(mem, pH, n).set(e.hashes.subarray(0, n));
  new Int32Array(mem, pO, n).set(e.docOff.subarray(0, n));
  new Int32Array(mem, pL, n).set(e.docLen.subarray(0, n));
  new Int32Array(mem, pN, n).set(e.lineOf.subarray(0, n));
  new Uint8Array(mem, pArena, e.arena.length).set(e.arena);
  const grouped = w.group(n, nq, pQ, pCounts, pPos, pH, pO, pL, pN, pS, oH, oO, oL, oN, oS) === 1;
  const [h, o, l] = grouped ? [pH, pO, pL] : [oH, oO, oL];
  const later = w.duplicates(nq, pCounts, h, o, l, pArena, pSlots);
  const result: Grouped = {
    counts: new Int32Array(mem, pCounts, nq + 1).slice(),
    ...(grouped
      ? {}
      : {
          arrays: {
            hashes: new Int32Array(mem, oH, n).slice(),
            docOff: new Int32Array(mem, oO, n).slice(),
            docLen: new Int32Array(mem, oL, n).slice(),
            lineOf: new Int32Array(mem, oN, n).slice(),
            scores: new Float64Array(mem, oS, n).slice(),
          },
        }),
    ...(later >= 0 ? { duplicate: [later, w.dupFirst.value] as [number, number] } : {}),
  };
  release(w);
  return result;
}
