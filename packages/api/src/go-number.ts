/**
 * A number as Go's `%v` prints it: integers in decimal (`int64`), other numbers as
 * `strconv.FormatFloat(f, 'g', -1, 64)` (exponent form below 1e-4 and from 1e6 on). JSON does not
 * tell integers from floats; integral numbers print as Go prints the `int64` its decoder makes.
 */
export function goFormatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}
