/**
 * A request's timeout: `expire` runs once `ms` have passed since the request started, unless the
 * returned cancel function ran first. Each request has its own; nothing is shared or queued.
 *
 * Not a bare setTimeout: while rgate's event loop is busy (parsing and checking a large answer, a
 * GC pause, starved of CPU), timers fall due unnoticed, and when the loop comes back node runs
 * due timers before it reads the I/O that arrived meanwhile. Every request in flight would then lose
 * to its own late timer although its answer was already waiting in its pipe or socket, charged for
 * time that was not its own. So the verdict waits one turn of the loop (setImmediate runs after that
 * I/O is read): an answer that is there by then counts, a system still silent is timed out.
 */
export function deadline(ms: number, expire: () => void): () => void {
  let turn: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    turn = setImmediate(expire);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (turn !== undefined) clearImmediate(turn);
  };
}
