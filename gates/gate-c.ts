/**
 * A gate is a Gate C gate (seed 000's closeout review) when its id says so with a `gate-c` segment,
 * as context-load-gate-c-v0 does: the id is what every report and closeout already prints, so the
 * claim "Gate C" is checkable by whoever reads it, and no schema field can disagree with it.
 */
export function isGateC(gateId: string): boolean {
  return /(^|[-._])gate-c([-._]|$)/.test(gateId);
}
