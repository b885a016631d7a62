import type { RunStore } from './types.js';

type Method = Exclude<keyof RunStore, 'location'>;

/**
 * The run store contract with every method answering a promise: what a store on a network database
 * (PostgreSQL) can offer, and what `rgate server` uses. The embedded stores (SQLite, memory) stay
 * synchronous for the harness, which writes each observation as it arrives, and are lifted to this
 * contract by `asAsync`; one contract test suite runs over all three through it.
 */
export type AsyncRunStore = { readonly location: string } & {
  [K in Method]: RunStore[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** A synchronous store behind the async contract (a throw becomes a rejection). */
export function asAsync(store: RunStore): AsyncRunStore {
  const lift =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): Promise<R> => {
      try {
        return Promise.resolve(f.apply(store, args));
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
  return {
    location: store.location,
    beginRun: lift(store.beginRun),
    resumeRun: lift(store.resumeRun),
    addObservation: lift(store.addObservation),
    finishRun: lift(store.finishRun),
    importRun: lift(store.importRun),
    getRun: lift(store.getRun),
    findRunByContentKey: lift(store.findRunByContentKey),
    listRuns: lift(store.listRuns),
    summarizeRuns: lift(store.summarizeRuns),
    runFacets: lift(store.runFacets),
    getObservations: lift(store.getObservations),
    getMetrics: lift(store.getMetrics),
    getMetricsOf: lift(store.getMetricsOf),
    getReport: lift(store.getReport),
    setBaseline: lift(store.setBaseline),
    getBaseline: lift(store.getBaseline),
    saveCompareSession: lift(store.saveCompareSession),
    listCompareSessions: lift(store.listCompareSessions),
    getCompareSession: lift(store.getCompareSession),
    close: lift(store.close),
  };
}
