/** Python's `bisect` over a sorted array of numbers. */

/** The index of the first element of sorted `xs` greater than `x` (Python's bisect_right). */
export function bisectRight(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < (xs[mid] ?? 0)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The index of the first element of sorted `xs` not less than `x` (Python's bisect_left). */
export function bisectLeft(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
