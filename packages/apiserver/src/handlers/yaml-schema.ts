import type { ScalarTag, Tags } from 'yaml';

/**
 * How goyaml v2 (`resolve.go`, which `sigs.k8s.io/yaml` and so kube-apiserver decode YAML with)
 * reads plain scalars, as tags for the `yaml` package, whose own schemas are YAML 1.2's core
 * (`yes` a string, `010` ten) or YAML 1.1's (sexagesimal numbers, timestamps as dates, which
 * goyaml reads as strings). A plain scalar is:
 * - null: empty, `~`, `null`, `Null`, `NULL`;
 * - a boolean: `y`, `yes`, `true`, `on` and `n`, `no`, `false`, `off`, each also capitalized
 *   and upper-cased;
 * - when it starts with a digit, `+` or `-`, with its underscores removed: an integer as Go's
 *   `strconv.ParseInt(s, 0, 64)` reads it (`010` is 8, `0x1F`, `0o17`, `0b101`), else an
 *   unsigned one past int64, else a float (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`)
 *   that a float64 holds (`1e400` stays a string);
 * - when it starts with `.`: a float (`.5`), or `.inf`, `.nan` and their spellings;
 * - anything else a string (timestamps too: goyaml decodes them into strings).
 * Quoted and block scalars are strings. Explicit tags (`!!int 010`) resolve the same way.
 */
export const goyamlScalarTags = (tags: Tags): Tags => [
  ...tags.filter(isKeptTag),
  implicitTag('null', /^(?:~|null|Null|NULL)?$/),
  implicitTag('bool', /^(?:[yYnN]|[Yy]es|YES|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF)$/),
  implicitTag('int', /^[-+0-9]/),
  implicitTag('float', /^\./),
  ...(['null', 'bool', 'int', 'float'] as const).map(explicitTag),
  // Decoded by the conversion (yaml-decode.ts), as goyaml decodes them: kept as text here.
  { tag: 'tag:yaml.org,2002:binary', default: false, resolve: (value: string) => value },
  {
    tag: 'tag:yaml.org,2002:timestamp',
    default: false,
    resolve: (value: string, onError: (message: string) => void) => {
      if (!goTimestamp.test(value))
        onError(`cannot decode !!${resolvePlain(value).kind} \`${value}\` as a !!timestamp`);
      return value;
    },
  },
];

/**
 * The schema's map, list and string tags stay; YAML 1.1's `!!omap`, `!!pairs` and `!!set` do not
 * (goyaml reads them as the list or map they are written as; the `yaml` package's `!!omap` checks
 * its keys in quadratic time).
 */
const keptTags = new Set(['tag:yaml.org,2002:map', 'tag:yaml.org,2002:seq', 'tag:yaml.org,2002:str']);
const isKeptTag = (t: Tags[number]): boolean => typeof t === 'object' && keptTags.has(t.tag);

/** What goyaml resolves a scalar to; `uint` is an integer past int64 (Go's uint64). */
export type Kind = 'null' | 'bool' | 'int' | 'uint' | 'float' | 'str';

/** A plain scalar resolved by its text, for the scalars `test` selects. */
const implicitTag = (kind: Kind, test: RegExp): ScalarTag => ({
  default: true,
  tag: `tag:yaml.org,2002:${kind}`,
  test,
  resolve: (value) => resolvePlain(value).value,
});

/**
 * A scalar with an explicit tag (`!!int 010`): resolved as a plain one, and refused in goyaml's
 * words when it resolves to another kind (`cannot decode !!str \`x\` as a !!int`); an integer
 * may be a float.
 */
const explicitTag = (kind: Kind): ScalarTag => ({
  default: false,
  tag: `tag:yaml.org,2002:${kind}`,
  resolve: (value, onError) => {
    const r = resolvePlain(value);
    if (r.kind === kind || (kind === 'int' && r.kind === 'uint') || (kind === 'float' && r.kind === 'int')) {
      return r.value;
    }
    if (r.kind === 'uint') {
      onError(`cannot decode !!int \`${value}\` as a !!${kind}`);
      return value;
    }
    onError(`cannot decode !!${r.kind} \`${value}\` as a !!${kind}`);
    return value;
  },
});

/** A resolved scalar: its kind, its value, and for integers their exact decimal text. */
export interface Resolved {
  readonly kind: Kind;
  readonly value: unknown;
  readonly exact?: string;
}

const entry = (word: string, kind: Kind, value: unknown): [string, Resolved] => [word, { kind, value }];

const words: ReadonlyMap<string, Resolved> = new Map<string, Resolved>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((w) => entry(w, 'bool', true)),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((w) => entry(w, 'bool', false)),
  ...['', '~', 'null', 'Null', 'NULL'].map((w) => entry(w, 'null', null)),
  ...['.nan', '.NaN', '.NAN'].map((w) => entry(w, 'float', NaN)),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((w) => entry(w, 'float', Infinity)),
  ...['-.inf', '-.Inf', '-.INF'].map((w) => entry(w, 'float', -Infinity)),
]);

/** The layouts goyaml's `parseTimestamp` accepts (`2006-1-2T15:4:5.999999999Z07:00`, with `t` or a space, `2006-1-2`). */
const goTimestamp =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})|[ ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?)?$/;

/** Go's `strconv.ParseInt(s, 0, 64)` syntax (and `ParseUint`'s, without the sign). */
const goInt = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
const goyamlFloat = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const goDotFloat = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
const int64Limit = 2n ** 63n;
const uint64Max = 2n ** 64n - 1n;

/** At least how many bits the digits of a {@link goInt} match need (leading zeros aside). */
function significantBits(m: RegExpExecArray): number {
  const [, , hex, oct, bin, legacyOct, dec] = m;
  const digits = (d: string | undefined): number => (d ?? '').replace(/^0+/, '').length;
  if (hex !== undefined) return digits(hex) * 4 - 3;
  if (oct !== undefined) return digits(oct) * 3 - 2;
  if (bin !== undefined) return digits(bin);
  if (legacyOct !== undefined) return digits(legacyOct) * 3 - 2;
  return Math.floor((digits(dec) - 1) * Math.log2(10)) + 1;
}

/** goyaml v2's `resolve` of a plain scalar: its kind and value (the text itself for a string). */
export function resolvePlain(text: string): Resolved {
  const first = text.charAt(0);
  const hint =
    text === ''
      ? 'N'
      : first === '+' || first === '-'
        ? 'S'
        : first >= '0' && first <= '9'
          ? 'D'
          : 'yYnNtTfFoO~'.includes(first)
            ? 'M'
            : first === '.'
              ? '.'
              : '';
  if (hint === '') return { kind: 'str', value: text };
  const word = words.get(text);
  if (word !== undefined) return word;
  if (hint === '.') {
    const f = Number(text);
    return goDotFloat.test(text) && Number.isFinite(f) ? { kind: 'float', value: f } : { kind: 'str', value: text };
  }
  if (hint !== 'D' && hint !== 'S') return { kind: 'str', value: text };
  const plain = text.replaceAll('_', '');
  const m = goInt.exec(plain);
  // Past 64 bits in any base the integer is neither an int64 nor a uint64 (and BigInt would take
  // time for nothing).
  if (m !== null && significantBits(m) <= 64) {
    const [, sign, hex, oct, bin, legacyOct, dec] = m;
    const digits =
      hex !== undefined
        ? BigInt(`0x${hex}`)
        : oct !== undefined
          ? BigInt(`0o${oct}`)
          : bin !== undefined
            ? BigInt(`0b${bin}`)
            : legacyOct !== undefined
              ? legacyOct === ''
                ? 0n
                : BigInt(`0o${legacyOct}`)
              : BigInt(dec!);
    const n = sign === '-' ? -digits : digits;
    if (n >= -int64Limit && n < int64Limit) return { kind: 'int', value: Number(n), exact: n.toString() };
    if (sign === '' && n <= uint64Max) return { kind: 'uint', value: Number(n), exact: n.toString() };
  }
  if (goyamlFloat.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return { kind: 'float', value: f };
  }
  return { kind: 'str', value: text };
}
