/**
 * Whether goyaml v2 reads a plain scalar as a timestamp (its `parseTimestamp`): four digits and a
 * '-', then one of its layouts `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`,
 * `2006-1-2 15:4:5.999999999` and `2006-1-2`, as Go's `time.Parse` (Go 1.19) accepts them. That
 * parser is looser than the layouts look: one- or two-digit fields, any run of spaces for the
 * space, a fraction after ',' or '.' of at most nine digits, a zone offset whose hours and minutes
 * may be signed (`+-1:+2`), and the day checked against the month's length (leap years included).
 * The character after the date decides which layout can match, so each is parsed once.
 */
export function isGoyamlTimestamp(s: string): boolean {
  if (s.length < 8 || s.charCodeAt(4) !== 45 || !(digit(s, 0) && digit(s, 1) && digit(s, 2) && digit(s, 3))) {
    return false;
  }
  const year = Number(s.slice(0, 4));
  let i = 5;
  const month = getnum(s, i);
  if (month < 0) return false;
  i += digit(s, i + 1) ? 2 : 1;
  if (month < 1 || month > 12 || s.charCodeAt(i) !== 45) return false;
  const day = getnum(s, ++i);
  if (day < 0) return false;
  i += digit(s, i + 1) ? 2 : 1;
  if (i === s.length) return validDay(day, month, year);
  const sep = s[i];
  let zone: boolean;
  if (sep === 'T' || sep === 't') {
    zone = true;
    i++;
  } else if (sep === ' ') {
    zone = false;
    while (s[i] === ' ') i++;
  } else return false;
  for (const [limit, after] of [
    [24, ':'],
    [60, ':'],
    [60, ''],
  ] as const) {
    const n = getnum(s, i);
    if (n < 0 || n >= limit) return false;
    i += digit(s, i + 1) ? 2 : 1;
    if (after !== '') {
      if (s[i] !== after) return false;
      i++;
    }
  }
  // A fraction: ',' or '.' and a digit, then at most nine digits in all.
  if ((s[i] === '.' || s[i] === ',') && digit(s, i + 1)) {
    let k = 0;
    while (k < 9 && digit(s, i + 1 + k)) k++;
    i += 1 + k;
  }
  if (zone) {
    if (s[i] === 'Z') i++;
    else {
      // Go's time.atoi reads the hours and the minutes: a sign may lead.
      const z = s.slice(i, i + 6);
      if (z.length < 6 || z[3] !== ':' || (z[0] !== '+' && z[0] !== '-')) return false;
      if (!/^[-+]?[0-9]*$/.test(z.slice(1, 3)) || !/^[-+]?[0-9]*$/.test(z.slice(4, 6))) return false;
      i += 6;
    }
  }
  return i === s.length && validDay(day, month, year);
}

function digit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Go's `getnum(s, false)` from `i`: one digit, or two; -1 when there is none. */
function getnum(s: string, i: number): number {
  if (!digit(s, i)) return -1;
  if (!digit(s, i + 1)) return s.charCodeAt(i) - 48;
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
}

function validDay(day: number, month: number, year: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= days;
}
