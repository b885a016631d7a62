/** `a` copied into a new array of `n` entries (n >= a.length): the growth step of the readers' flat arrays. */
export function grow32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
