/** What every benchmark shares: its result shape, where results go, and "run when executed directly". */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchResult {
  name: string;
  ok: boolean;
  figures: Record<string, number | string | boolean | null>;
  goals: Record<string, string>;
}

/** The repository root (benchmarks run from dist/benchmarks/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Record a result as benchmarks/results/<file>.json. */
export function writeBenchResult(file: string, result: unknown): void {
  const outDir = join(ROOT, 'benchmarks/results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${file}.json`), JSON.stringify(result, null, 2) + '\n');
}

/** True when the module at `url` is the script node was started with (not imported by run-all). */
export function isMain(url: string): boolean {
  return Boolean(process.argv[1]) && url === pathToFileURL(process.argv[1]!).href;
}
