import { byteStringToText } from '../trec/index.js';
import type { TrecEvalJson } from '../documents/index.js';
import type { QueryValues, TrecEvalResult } from './_evaluate.js';

/** 10^0 .. 10^15 as literals: each is an exact double */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * C's printf("%.<digits>f"): the exact binary value of the double rounded; only a value exactly
 * halfway (e.g. 0.03125 at 4 digits) is a tie, and glibc breaks it to even. JavaScript's toFixed
 * rounds ties up, so exact ties are detected and rounded to even here. Every number rgate prints
 * with fixed decimals goes through it, so a report reads 5/32 as trec_eval does (0.1562).
 */
export function cFixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  // toFixed(30) is exact for |x| < 1e21: a tie shows as ....d5 followed by zeros only
  if (!(Math.abs(x) < 1e21)) return s;
  // Fast path (a -q -m all_trec report prints a million values): 10^digits is an exact double, so
  // when |x| * 10^digits is exactly k + 0.5 below 2^52 (representable), the correctly rounded
  // product is k + 0.5 itself; any other fraction rules a tie out without the exact digits.
  if (digits < POW10.length) {
    const scaled = Math.abs(x) * POW10[digits]!;
    if (scaled < 2 ** 52 && scaled - Math.floor(scaled) !== 0.5) return s;
  }
  const exact = Math.abs(x).toFixed(30);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 1 + digits))) return s;
  const kept = exact.slice(0, digits === 0 ? dot : dot + 1 + digits);
  // odd last digit: rounding away from zero (toFixed's choice) is the even result
  if (Number(kept[kept.length - 1]) % 2 !== 0) return s;
  return (x < 0 ? '-' : '') + kept;
}

/**
 * "0000" .. "9999", each made the first time it is printed: a -q -m all_trec report prints millions
 * of values, a small score a few (making all 10,000 at once took 5-11 ms of CPU in a fresh process).
 */
const fourDigits = new Array<string | undefined>(10000);

/**
 * x rounded to ten-thousandths, as an integer count of them, when no tie can be near; else -1.
 * Below 2^40 the product x * 10^4 is within 2^-13 of the exact one, so when its fraction is further
 * than that from one half, rounding it to the nearest integer rounds the exact value the same way
 * (a fraction near .5 goes to cFixed, which decides ties exactly). Negative values (and -0's sign)
 * go to cFixed too.
 */
function fastTicks4(x: number): number {
  if (!(x >= 0 && x < 1e8)) return -1;
  const p = x * 10000;
  const f = Math.floor(p);
  const frac = p - f;
  if (frac >= 0.499 && frac <= 0.501) return -1;
  return frac > 0.5 ? f + 1 : f;
}

/** trec_eval's %6.4f, with its spellings of what is not a finite number. */
export function formatFixed4(x: number): string {
  const k = fastTicks4(x);
  if (k >= 0) {
    const r = k % 10000;
    return `${(k - r) / 10000}.${(fourDigits[r] ??= String(r).padStart(4, '0'))}`;
  }
  // glibc's %6.4f: right-aligned in 6 columns; 0/0 on x86 is the negative default NaN, "-nan"
  if (!Number.isFinite(x)) return (x > 0 ? 'inf' : x < 0 ? '-inf' : '-nan').padStart(6);
  return cFixed(x, 4);
}

/** One trec_eval output line: the measure name left-aligned in 22 columns, query, value. */
export function trecLine(name: string, qid: string, value: string): string {
  return `${name.padEnd(22)}\t${qid}\t${value}`;
}

export function formatValue(kind: 'int' | 'float', v: number): string {
  return kind === 'int' ? String(Math.trunc(v)) : formatFixed4(v);
}

/**
 * trec_eval's text output: with perQuery, every evaluated query's lines (qrels query order), then the
 * `all` lines (unless summary is false: -n); the runid line (when requested) heads the summary. A text
 * measure (relstring) prints its per-query string in single quotes and has no `all` line (trec_eval
 * m_relstring.c). The UTF-8 of renderTrecEvalBytes.
 */
export function renderTrecEval(
  r: TrecEvalResult,
  o: { perQuery: boolean; runid: boolean; summary?: boolean },
): string {
  return renderTrecEvalBytes(r, o).toString('utf8');
}

/**
 * renderTrecEval's text as the bytes `rgate score` writes: a -q -m all_trec report is a million
 * lines (17 MB at 7,000 queries), and a string a line, joined, re-encoded, was as much CPU (and most
 * of the collector's work) as reading the run. Here each line is copied into one growing buffer: the
 * measure's column and the query's id as bytes made once, values written digit by digit. With a sink,
 * the buffer stays SINK_BYTES large: each time it is full its bytes go to the sink (and may be
 * overwritten once it returns), and what is left is returned.
 */
export function renderTrecEvalBytes(
  r: TrecEvalResult,
  o: { perQuery: boolean; runid: boolean; summary?: boolean },
  sink?: (chunk: Uint8Array) => void,
): Buffer {
  // each printed name's column (trecLine's), made once instead of once a query
  const heads = r.specs.map((s) => s.names.map((name) => Buffer.from(`${name.padEnd(22)}\t`, 'utf8')));
  let lineBytes = 0;
  r.specs.forEach((s, si) => {
    if (s.measure.printPerQuery) for (const h of heads[si]!) lineBytes += h.length + 10;
  });
  const size = o.perQuery ? r.queries.length * (lineBytes + 8 * heads.length) + 4096 : 4096;
  const out = new ByteOut(sink ? Math.min(size, SINK_BYTES) : size, sink);
  if (o.perQuery) {
    for (const q of r.queries) {
      // the id's bytes as read (one char a byte), as trec_eval prints them: decoding them as UTF-8
      // would print U+FFFD for a byte that is not
      const qid = Buffer.from(`${q.qid}\t`, 'latin1');
      for (let si = 0; si < r.specs.length; si++) {
        const m = r.specs[si]!.measure;
        if (!m.printPerQuery) continue;
        const head = heads[si]!;
        if (m.kind === 'text') {
          const text = q.text[si]!;
          for (let ni = 0; ni < head.length; ni++) {
            out.bytes(head[ni]!);
            out.bytes(qid);
            out.text(`'${text[ni]!}'\n`);
          }
          continue;
        }
        const values = q.values[si]!;
        const int = m.kind === 'int';
        for (let ni = 0; ni < head.length; ni++) out.valueLine(head[ni]!, qid, values[ni]!, int);
      }
    }
  }
  // -n (trec_eval's nosummary): no `all` line at all, runid included
  if (o.summary === false) return out.done();
  if (o.runid) out.bytes(Buffer.from(`${trecLine('runid', 'all', r.runId)}\n`, 'latin1'));
  r.specs.forEach((s, si) => {
    const m = s.measure;
    if (m.kind === 'text') return;
    s.names.forEach((name, ni) =>
      out.text(`${trecLine(name, 'all', formatValue(m.kind, r.summary[si]![ni]!))}\n`),
    );
  });
  return out.done();
}

const NL = 10;
const DOT = 46;
const ZERO = 48;

/** A report this large is not held whole when written as it is made (its values are, already). */
const SINK_BYTES = 1 << 20;

/** An append-only byte buffer that doubles when full, or hands its bytes to a sink then. */
class ByteOut {
  private buf: Buffer;
  private n = 0;

  constructor(
    capacity: number,
    private readonly sink?: (chunk: Uint8Array) => void,
  ) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    if (this.sink && this.n > 0) {
      this.sink(this.buf.subarray(0, this.n));
      this.n = 0;
      if (k <= this.buf.length) return;
    }
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.n++] = b;
  }

  /** a column or a query id: a loop beats Buffer.set's call for a few dozen bytes */
  bytes(b: Uint8Array): void {
    const len = b.length;
    this.room(len);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < len; i++) buf[n++] = b[i]!;
    this.n = n;
  }

  text(s: string): void {
    this.room(3 * s.length);
    this.n += this.buf.write(s, this.n, 'utf8');
  }

  /** String(Math.trunc(v)), digits written directly for the usual counts */
  int(v: number): void {
    const t = Math.trunc(v);
    if (!(t >= 0 && t < 2 ** 31)) return this.text(String(t));
    this.digits(t);
  }

  private digits(t: number): void {
    let len = 1;
    for (let p = 10; p <= t; p *= 10) len++;
    this.room(len);
    const buf = this.buf;
    let x = t;
    for (let i = this.n + len - 1; i >= this.n; i--) {
      buf[i] = ZERO + (x % 10);
      x = (x - (x % 10)) / 10;
    }
    this.n += len;
  }

  /**
   * One -q line: the measure's column, the query's id, the value (an int or %.4f) and a newline,
   * with one check for room (a report is a million of them); values off the fast paths go through
   * int() and fixed4().
   */
  valueLine(head: Uint8Array, qid: Uint8Array, v: number, int: boolean): void {
    // the value's ticks: a count, or ten-thousandths of it (fastTicks4); -1 for the slow paths
    const ticks = int ? Math.trunc(v) : fastTicks4(v);
    if (!(ticks >= 0 && ticks < 2 ** 31)) {
      this.bytes(head);
      this.bytes(qid);
      if (int) this.int(v);
      else this.fixed4(v);
      this.byte(NL);
      return;
    }
    // at most 10 digits of a count, or 8 and 5 of a %.4f value below 1e8 (fastTicks4), and a newline
    this.room(head.length + qid.length + 16);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < head.length; i++) buf[n++] = head[i]!;
    for (let i = 0; i < qid.length; i++) buf[n++] = qid[i]!;
    const r = int ? 0 : ticks % 10000;
    let whole = int ? ticks : (ticks - r) / 10000;
    let len = 1;
    for (let p = 10; p <= whole; p *= 10) len++;
    for (let i = n + len - 1; i >= n; i--) {
      const d = whole % 10;
      buf[i] = ZERO + d;
      whole = (whole - d) / 10;
    }
    n += len;
    if (!int) {
      buf[n] = DOT;
      buf[n + 1] = ZERO + Math.floor(r / 1000);
      buf[n + 2] = ZERO + (Math.floor(r / 100) % 10);
      buf[n + 3] = ZERO + (Math.floor(r / 10) % 10);
      buf[n + 4] = ZERO + (r % 10);
      n += 5;
    }
    buf[n++] = NL;
    this.n = n;
  }

  /** formatFixed4(x): its fast path's digits written here, anything else its string */
  fixed4(x: number): void {
    const k = fastTicks4(x);
    if (k < 0) {
      this.text(formatFixed4(x));
      return;
    }
    const r = k % 10000;
    this.digits((k - r) / 10000);
    this.room(5);
    const buf = this.buf;
    const n = this.n;
    buf[n] = DOT;
    buf[n + 1] = ZERO + Math.floor(r / 1000);
    buf[n + 2] = ZERO + (Math.floor(r / 100) % 10);
    buf[n + 3] = ZERO + (Math.floor(r / 10) % 10);
    buf[n + 4] = ZERO + (r % 10);
    this.n = n + 5;
  }

  done(): Buffer {
    return this.buf.subarray(0, this.n);
  }
}

/**
 * The same numbers as JSON (full precision, not rounded); a text measure only per query, as a string.
 * Without the summary (-n) there is no `all`. The document is src/documents/score-json.ts (a value
 * that is not finite is a number here and null once stringified).
 */
export function trecEvalJson(r: TrecEvalResult, o: { perQuery: boolean; summary?: boolean }): TrecEvalJson {
  const all: Record<string, number> = {};
  r.specs.forEach((s, si) => {
    if (s.measure.kind !== 'text') s.names.forEach((name, ni) => (all[name] = r.summary[si]![ni]!));
  });
  const perQuery = (q: QueryValues): Record<string, number | string> => {
    const m: Record<string, number | string> = {};
    r.specs.forEach((s, si) =>
      s.names.forEach(
        (name, ni) => (m[name] = s.measure.kind === 'text' ? q.text[si]![ni]! : q.values[si]![ni]!),
      ),
    );
    return m;
  };
  return {
    run_id: byteStringToText(r.runId),
    num_q: r.numQueries,
    ...(o.summary === false ? {} : { all }),
    ...(o.perQuery
      ? {
          queries: r.queries.map((q) => ({
            query_id: byteStringToText(q.qid),
            in_run: q.inRun,
            measures: perQuery(q),
          })),
        }
      : {}),
  };
}
