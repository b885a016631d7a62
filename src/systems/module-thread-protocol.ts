/** The messages between a module system's worker thread and its adapter (types only). */

/** The thread's workerData. */
export interface ThreadStart {
  /** absolute path of the module */
  file: string;
  exportName: string;
}

export interface ThreadRequest {
  id: number;
  body: Record<string, unknown>;
}

/** Why a module could not be loaded and called. */
export type LoadProblem =
  | { kind: 'syntax'; message: string; file: string; line: number; column: number }
  | { kind: 'threw'; message: string; stack?: string }
  | { kind: 'no_export'; available: string[] }
  | { kind: 'not_callable'; what: string };

export type ThreadReply =
  | { t: 'loaded' }
  | { t: 'load_failed'; problem: LoadProblem }
  | {
      t: 'reply';
      id: number;
      /** console output since the previous answer, one entry per call */
      warnings: string[];
      /** the payload for the contract, and whether the function returned a plain list */
      answer?: unknown;
      list?: boolean;
      /** the answer cannot be read: `/<json path>: what is wrong` in what the function returned */
      problem?: string;
      /** the function threw or its promise rejected */
      thrown?: { message: string; stack?: string };
    };
