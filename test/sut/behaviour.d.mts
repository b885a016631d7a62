export function recordPid(pid: number | undefined): void;
export function recordAnswered(queryId: string): void;
export function recordHolding(queryId: string): void;
export function okAnswer(
  queryId: string,
  query: string,
  extra?: Record<string, unknown>,
): Record<string, unknown>;
export type Decision =
  | { kind: 'answer'; body: Record<string, unknown> & { error?: unknown }; wrongId?: boolean }
  | { kind: 'crash' | 'hang' | 'hang-with-child' | 'garbage' | 'huge' | 'flood' };
export function decide(queryId: string, query: string, state: { served: number }): Decision;
export function spawnSleeper(): unknown;
export const HUGE: string;
export const FLOOD_BYTES: number;
export function flood(
  out: NodeJS.WritableStream & { destroyed: boolean },
  head: string,
  tail: string,
  done?: () => void,
): void;
