// Random label and field selectors for compare.js: valid and invalid keys (prefixes, 63- and
// 253-character bounds, characters of every class), values, every operator, sets in parentheses,
// repeated and trailing commas, blanks of several kinds, integers for `gt`/`lt` (signs, leading
// zeros, past int64), and for field selectors escapes good and bad.

export { seededRandom as random } from '../lib/seeded-random.js';

const names = ['a', 'b', 'app', 'x-y', 'x.y', 'x_y', 'A', '1a', 'a1', '-a', 'a-', '_a', 'a_', '.a', 'é', 'a b'];
const prefixes = ['', '', '', 'k8s.io/', 'a.b/', 'A.b/', '-a/', 'a/', '/', 'a..b/', `${'p'.repeat(254)}/`];
const values = [
  '',
  'v',
  'x',
  'v-1',
  'v_1',
  'v.1',
  '-v',
  'v-',
  'V',
  '1',
  '007',
  '-1',
  '+1',
  ' v',
  'v ',
  'é',
  'a/b',
  '9223372036854775808',
  '-9223372036854775809',
];
const blanks = ['', '', '', ' ', '  ', '\t', '\n', '\r', '\u00a0'];

const cleanNames = ['a', 'b', 'app', 'x-y', 'x.y', 'x_y', 'A', '1a', 'a1'];
const cleanPrefixes = ['', '', '', 'k8s.io/', 'a.b/'];
const cleanValues = ['', 'v', 'x', 'v-1', 'v_1', 'v.1', 'V', '1', '007', '-1', '2'];

/** Whether the generator keeps to well-formed keys, values and blanks (half the selectors). */
let clean = false;

function key(r) {
  if (clean) return r.pick(cleanPrefixes) + r.pick(cleanNames);
  const n = r.chance(0.03) ? 'k'.repeat(r.pick([63, 64])) : r.pick(names);
  return r.pick(prefixes) + n;
}

function value(r) {
  if (clean) return r.pick(cleanValues);
  return r.chance(0.03) ? 'v'.repeat(r.pick([63, 64])) : r.pick(values);
}

const blank = (r) => (clean ? r.pick(['', '', ' ']) : r.pick(blanks));

/** One requirement of a label selector, or a fragment of one. */
function labelTerm(r) {
  const k = key(r);
  const b = () => blank(r);
  switch (clean ? r.pick([0, 1, 2, 3, 4, 5, 6, 10]) : r.int(12)) {
    case 0:
      return `${k}`;
    case 1:
      return `!${b()}${k}`;
    case 2:
    case 3:
      return `${k}${b()}${r.pick(['=', '==', '!='])}${b()}${value(r)}`;
    case 4:
    case 5: {
      const n = r.int(4);
      const vs = Array.from({ length: n }, () => value(r)).join(`${b()},${b()}`);
      return `${k}${b()}${r.pick(['in', 'notin', 'In', 'in(', 'notin ('])}${b()}(${b()}${vs}${b()})`;
    }
    case 6:
      return `${k}${b()}${r.pick(['>', '<'])}${b()}${r.pick(['1', '-1', '+1', '01', 'a', '', '9223372036854775807', '9223372036854775808', '1.5', '0x1'])}`;
    case 7:
      return r.pick(['', ',', '(', ')', '=', '!', '!=', 'in', 'notin', '==', '>', '<', '=a', 'a=b=c', 'a==', 'a!']);
    case 8:
      return `${k}${r.pick(['=', '!=', '=='])}`;
    case 9:
      return `${k} in (${value(r)}`;
    default:
      return `${k}=${value(r)}`;
  }
}

/**
 * A label selector of zero to four terms joined by commas (some repeated or trailing); half of
 * them of well-formed keys, values and blanks only, so that many parse and are matched.
 */
export function labelSelector(r) {
  clean = r.chance(0.5);
  const n = r.int(5);
  const terms = Array.from({ length: n }, () => labelTerm(r));
  let s = terms.join(r.chance(0.9) ? ',' : r.pick([',,', ', ', ' ,', ';']));
  if (r.chance(0.1)) s += ',';
  if (r.chance(0.05)) s = `,${s}`;
  return `${blank(r)}${s}${blank(r)}`;
}

const fieldNames = ['metadata.name', 'metadata.namespace', 'involvedObject.kind', 'type', 'a', '', ' a', 'a b', 'a=b'];
const fieldValues = ['x', '', 'a,b', 'a\\,b', 'a\\=b', 'a\\\\b', 'a\\', 'a\\n', 'a=b', 'a!=b', ' x', 'é', 'a\\!b'];

/** A field selector of zero to four terms. */
export function fieldSelector(r) {
  const n = r.int(5);
  const terms = Array.from({ length: n }, () => {
    if (r.chance(0.08)) return r.pick(['', '=', '!=', '==', 'a', 'a==', '=a', '\\', 'a\\=b']);
    return `${r.pick(fieldNames)}${r.pick(['=', '==', '!=', '=', '!'])}${r.pick(fieldValues)}`;
  });
  let s = terms.join(r.chance(0.9) ? ',' : r.pick([',,', ', ']));
  if (r.chance(0.1)) s += ',';
  return s;
}

/** Labels for a label selector to match: keys and values from the selectors' own domains. */
export function labelSet(r) {
  const out = {};
  const n = r.int(5);
  for (let i = 0; i < n; i++)
    out[r.pick(['a', 'b', 'app', 'x-y', 'k8s.io/a', 'a.b/app'])] = r.pick(['', 'v', 'x', '1', '-1', '007', '2', 'v-1']);
  return out;
}

const nameChars = 'abz09AZ-_./é ~';

/** A string to check as a name, label key and label value: lengths around every bound. */
export function nameText(r) {
  const length = r.chance(0.5) ? r.int(8) : r.pick([62, 63, 64, 252, 253, 254, 316, 317, 318]);
  let s = '';
  for (let i = 0; i < length; i++) s += r.chance(0.7) ? r.pick(['a', 'b', '0']) : nameChars[r.int(nameChars.length)];
  if (r.chance(0.2)) s = `${r.pick(['a.b', 'k8s.io', 'A.b', '-a', 'a..b', ''])}/${s}`;
  return s;
}
