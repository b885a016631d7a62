import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { Observation } from '../documents/index.js';

/**
 * How a run's observations are kept: each request's row holds only what changes from replay to
 * replay (replay number and latency); the rest of the observation, its body, is stored once per run
 * however many replays answered it the same way (content-addressed: a body's key is the sha256 of its
 * text). The bodies written together (a batch of requests, an import) are compressed together as one
 * pack: the rankings of one run share ids, paths and field names, which a body deflated alone cannot
 * use (a 10k-query x 2-replay run: 11.3 MB of rows deflated one by one, 1.6 MB in packs).
 *
 * A body is the observation's JSON with `replay` and `latency_ms` set to 0 where they stand, so
 * reading it back and setting them again gives the same keys in the same order: exactly what was
 * written.
 */

/** A body's text and its key. */
export interface ObservationBody {
  text: string;
  key: string;
}

export function observationBody(obs: Observation): ObservationBody {
  const body: Record<string, unknown> = { ...obs, replay: 0 };
  if ('latency_ms' in obs) body.latency_ms = 0;
  const text = JSON.stringify(body);
  return { text, key: createHash('sha256').update(text).digest('base64') };
}

/** The observation of a body read back, with its row's replay and latency (null: it had none). */
export function withRequest(body: unknown, replay: number, latencyMs: number | null): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  o.replay = replay;
  if (latencyMs !== null) o.latency_ms = latencyMs;
  return o;
}

/**
 * Bodies joined by newlines (JSON.stringify never writes one), packed with brotli at quality 5: on a
 * 10k-query run's packs 10% smaller than deflate at level 6 (1.64 against 1.83 MB) for ~20 us more a
 * body, paid once per batch of requests, not per request.
 */
export function packBodies(texts: readonly string[]): Buffer {
  return brotliCompressSync(texts.join('\n'), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
}

export function unpackBodies(pack: Buffer): string[] {
  return brotliDecompressSync(pack).toString('utf8').split('\n');
}

/** A merged pack holds at most this many bodies: a run's bodies are held in memory once, at its end. */
export const MERGED_PACK_BODIES = 16_384;

/**
 * A finished run's packs joined into as few as MERGED_PACK_BODIES allows, and where each old pack's
 * bodies went. The packs a run writes as it goes (one per batch, for kill -9 safety) are small: each
 * is compressed without the others' ids and paths, and SQLite keeps each in its own overflow pages
 * with the last half empty (a 10k-query x 2-replay run: 1.74 MB of packs on 2.18 MB of pages; its
 * 10,000 bodies in one pack: 1.17 MB, brotli at the same quality; quality 7 would save 3% more for
 * twice the time). `null`: nothing to merge (one pack or none).
 */
export function mergePacks(packs: readonly { pack: number; bodies: Buffer }[]): {
  packs: { pack: number; bodies: Buffer }[];
  moved: { from: number; pack: number; offset: number }[];
} | null {
  if (packs.length <= 1) return null;
  const ordered = [...packs].sort((a, b) => a.pack - b.pack);
  const merged: string[][] = [[]];
  const moved = ordered.map((p) => {
    const texts = unpackBodies(p.bodies);
    let into = merged[merged.length - 1]!;
    if (into.length > 0 && into.length + texts.length > MERGED_PACK_BODIES) merged.push((into = []));
    const at = { from: p.pack, pack: merged.length - 1, offset: into.length };
    for (const t of texts) into.push(t);
    return at;
  });
  return { packs: merged.map((texts, pack) => ({ pack, bodies: packBodies(texts) })), moved };
}

/** Where a body is: its pack (numbered per run from 0) and its place in it. */
export interface BodyPlace {
  pack: number;
  slot: number;
}

/**
 * The bodies of one run a store knows are stored, by key, and the packs to come: a batch asks for the
 * place of each of its bodies and gets the new ones to write as one pack.
 */
export class RunBodies {
  private readonly places = new Map<string, BodyPlace>();
  private nextPack: number;

  /** `packs`: the run's stored packs (a resumed run's, or none), indexed so their bodies are reused */
  constructor(packs: readonly { pack: number; bodies: Buffer }[]) {
    let next = 0;
    for (const p of packs) {
      unpackBodies(p.bodies).forEach((text, slot) => {
        const key = createHash('sha256').update(text).digest('base64');
        if (!this.places.has(key)) this.places.set(key, { pack: p.pack, slot });
      });
      next = Math.max(next, p.pack + 1);
    }
    this.nextPack = next;
  }

  /** The places of these bodies, and the pack holding those not stored before (null: none new). */
  place(bodies: readonly ObservationBody[]): {
    places: BodyPlace[];
    pack: { pack: number; bodies: Buffer } | null;
  } {
    const fresh: string[] = [];
    const pack = this.nextPack;
    const places = bodies.map((b) => {
      let at = this.places.get(b.key);
      if (!at) {
        at = { pack, slot: fresh.length };
        fresh.push(b.text);
        this.places.set(b.key, at);
      }
      return at;
    });
    if (fresh.length === 0) return { places, pack: null };
    this.nextPack++;
    return { places, pack: { pack, bodies: packBodies(fresh) } };
  }

  /** Forget the places of a pack that was not written after all (its transaction rolled back). */
  forget(pack: number): void {
    for (const [k, at] of this.places) if (at.pack === pack) this.places.delete(k);
    if (this.nextPack === pack + 1) this.nextPack = pack;
  }
}

/** A stored observation row: its body inline (`json`, as rgate wrote rows before packs) or in a pack. */
export interface ObservationRecord {
  replay: number;
  latency_ms: number | null;
  pack: number | null;
  slot: number | null;
  json: string | Buffer | null;
}

/**
 * Each row's stored text (or deflated bytes) and its request fields, the packs inflated once each.
 * A pack or slot that is missing is an empty text, which the reader refuses as not JSON.
 */
export function rowsWithBodies(
  rows: readonly ObservationRecord[],
  packs: readonly { pack: number; bodies: Buffer }[],
): { json: string | Buffer; replay: number; latency_ms: number | null; inline: boolean }[] {
  const stored = new Map(packs.map((p) => [p.pack, p.bodies]));
  const open = new Map<number, string[]>();
  const bodiesOf = (pack: number): string[] => {
    let texts = open.get(pack);
    if (!texts) {
      const bytes = stored.get(pack);
      try {
        texts = bytes ? unpackBodies(bytes) : [];
      } catch {
        // a damaged pack: its rows read as empty texts, which the reader refuses naming the run
        texts = [];
      }
      open.set(pack, texts);
    }
    return texts;
  };
  return rows.map((r) => ({
    json:
      r.json !== null ? r.json : r.pack === null || r.slot === null ? '' : (bodiesOf(r.pack)[r.slot] ?? ''),
    replay: r.replay,
    latency_ms: r.latency_ms,
    inline: r.json !== null,
  }));
}
