/**
 * memory-cli's `retrieve` as the recorded-answer replayer takes it (test/sut/memory-cli-replay.mjs),
 * with rgate's placeholders where the real CLI takes its root, k and query: the argv the memory-cli
 * suite of rgate.config.json runs. `sut` is how the test names the replayer (a path, or `node <path>`).
 */
export function memoryCliRetrieveArgv(...sut: string[]): string[] {
  return [
    ...sut,
    'retrieve',
    '--root',
    '{corpus_dir}',
    '--top-k',
    '{k}',
    '--embedding-endpoint',
    'http://127.0.0.1:9',
    '--query',
    '{query}',
  ];
}
