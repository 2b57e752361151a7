import { parseArgs } from 'node:util';
import { parseGoDuration } from '@kevents/api';

/**
 * The value types of kube-style flags (spf13/pflag): `string`; `int` (a non-negative decimal
 * integer); `bool` (`--flag` alone means true; `--flag=false` and Go's `strconv.ParseBool`
 * spellings); `duration` (a non-negative Go duration, parsed into milliseconds); `stringSlice`
 * (comma-separated, blanks dropped; repeating the flag appends, as pflag's StringSlice);
 * `stringArray` (one value per occurrence, repeatable, as pflag's StringArray).
 */
export type FlagType = 'string' | 'int' | 'bool' | 'duration' | 'stringSlice' | 'stringArray';

/** The TypeScript type each {@link FlagType} parses into. */
export interface FlagValueTypes {
  readonly string: string;
  readonly int: number;
  readonly bool: boolean;
  /** Milliseconds. */
  readonly duration: number;
  readonly stringSlice: readonly string[];
  readonly stringArray: readonly string[];
}

/** One command-line flag. */
export interface FlagSpec<T extends FlagType = FlagType> {
  /** The name after `--`. */
  readonly name: string;
  readonly type: T;
  /** The default as written on a command line (parsed like a given value; `--help` shows it). */
  readonly default: string;
  readonly help: string;
  /** A one-letter shorthand (`o` for `-o json`, `-ojson`, `-o=json`), as pflag's `StringP`. */
  readonly short?: string;
  /** The only values accepted (e.g. `json`, `text`); any value when absent. */
  readonly values?: readonly string[];
}

/** The flags of one binary, by the option key each one fills. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/**
 * The typed options a set of flags parses into: one key per flag, defaults filled in; a flag with
 * `values` has their union as its type.
 */
export type OptionsOf<S extends FlagSpecs> = {
  readonly [K in keyof S]: S[K] extends { readonly values: readonly (infer V)[] } ? V : FlagValueTypes[S[K]['type']];
};

/** What {@link parseCommandLine} found on a command line. */
export interface CommandLine<S extends FlagSpecs> {
  readonly options: OptionsOf<S>;
  /** Arguments that are not flags, in order (everything after a lone `--` is one). */
  readonly args: readonly string[];
  /** `--help` or `-h` was given. */
  readonly help: boolean;
  /** The names of the flags given on the command line (pflag's `Changed`). */
  readonly changed: ReadonlySet<string>;
}

/** An unknown flag or a bad value: the binaries print `Error: <message>` and exit 2. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

const goBools: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

const oneOf = (values: readonly string[]): string =>
  values.length <= 2
    ? `must be ${values.join(' or ')}`
    : `must be one of ${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

/**
 * Parses one value of a flag (a given value, or the default text).
 * @throws FlagError `invalid argument "<value>" for "--<name>" flag: <why>`, as pflag words it.
 */
export function parseFlagValue<T extends FlagType>(spec: FlagSpec<T>, value: string): FlagValueTypes[T] {
  const bad = (why: string): FlagError =>
    new FlagError(
      `invalid argument "${value}" for "${spec.short ? `-${spec.short}, ` : ''}--${spec.name}" flag: ${why}`,
    );
  if (spec.values && !spec.values.includes(value)) throw bad(oneOf(spec.values));
  let out: FlagValueTypes[FlagType];
  switch (spec.type) {
    case 'string':
      out = value;
      break;
    case 'int':
      if (!/^\d+$/.test(value)) throw bad('parse error');
      out = Number(value);
      break;
    case 'bool': {
      const b = goBools[value];
      if (b === undefined) throw bad('parse error');
      out = b;
      break;
    }
    case 'duration': {
      const d = parseGoDuration(value);
      if (!d.ok) throw bad(d.error);
      if (d.nanos < 0) throw bad('can not be negative');
      out = d.nanos / 1e6;
      break;
    }
    case 'stringSlice':
      out = value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      break;
    case 'stringArray':
      out = value === '' ? [] : [value];
      break;
  }
  return out as FlagValueTypes[T];
}

/**
 * Parses a kube-style command line (what spf13/pflag accepts) on `node:util` `parseArgs`:
 * `--flag=value` and `--flag value` (the next argument, whatever it looks like), a bool flag
 * alone (`--flag`) or with a value (`--flag=false`), `--help`/`-h`, a lone `--` ending the flags;
 * a later scalar flag wins over an earlier one. Shorthands go as in pflag: `-o json`, `-ojson`,
 * `-o=json`, bool ones grouped (`-vq`); `-h` (unless a flag claims it) asks for help and ends its
 * group. Any other argument (a lone `-` too) is returned in `args`.
 * @throws FlagError `unknown flag: --x`, `unknown shorthand flag: 'x' in -x`, `flag needs an
 * argument: --x` (`'x' in -x`) or an invalid value.
 */
export function parseCommandLine<S extends FlagSpecs>(argv: readonly string[], specs: S): CommandLine<S> {
  const byName = new Map<string, [key: string, spec: FlagSpec]>(
    Object.entries(specs).map(([key, spec]) => [spec.name, [key, spec]]),
  );
  const shortHelp = !Object.values(specs).some((s) => s.short === 'h');
  const { tokens } = parseArgs({
    args: [...argv],
    options: {
      ...Object.fromEntries(
        [...byName.keys()].map((name) => [
          name,
          {
            type: byName.get(name)![1].type === 'bool' ? ('boolean' as const) : ('string' as const),
            ...(byName.get(name)![1].short ? { short: byName.get(name)![1].short } : {}),
          },
        ]),
      ),
      help: shortHelp ? { type: 'boolean', short: 'h' } : { type: 'boolean' },
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, unknown> = {};
  const changed = new Set<string>();
  const args: string[] = [];
  const set = (key: string, spec: FlagSpec, text: string): void => {
    const value = parseFlagValue(spec, text);
    // Repeatable flags: the first occurrence replaces the default, later ones append.
    if ((spec.type === 'stringSlice' || spec.type === 'stringArray') && changed.has(spec.name))
      values[key] = [...(values[key] as string[]), ...(value as string[])];
    else values[key] = value;
    changed.add(spec.name);
  };
  let help = false;
  // A shorthand group (`-vo json`) is one argument and several tokens: where in it the next one is.
  let group = { index: -1, at: 0 };
  for (const token of tokens) {
    if (token.kind === 'positional') args.push(token.value);
    if (token.kind !== 'option') continue;
    const raw = argv[token.index]!;
    if (!raw.startsWith('--')) {
      if (group.index !== token.index) group = { index: token.index, at: 1 };
      else if (group.at === 0) continue;
      const at = group.at++;
      const shorthands = raw.slice(at);
      const spec = Object.values(specs).find((s) => s.short === raw[at]);
      if (!spec) {
        if (raw[at] !== 'h' || !shortHelp)
          throw new FlagError(`unknown shorthand flag: '${raw[at]}' in -${shorthands}`);
        help = true;
        group.at = 0;
        continue;
      }
      // `-o=json` and `-v=false`: the rest of the group is the value.
      const inline = raw[at + 1] === '=' ? raw.slice(at + 2) : undefined;
      if (inline !== undefined) group.at = 0;
      const text = inline ?? (spec.type === 'bool' ? 'true' : (token.value ?? undefined));
      if (text === undefined) throw new FlagError(`flag needs an argument: '${raw[at]}' in -${shorthands}`);
      set(byName.get(spec.name)![0], spec, text);
      continue;
    }
    const found = byName.get(token.name);
    if (!found) {
      if (token.name !== 'help') throw new FlagError(`unknown flag: --${token.name}`);
      help =
        token.value === undefined || parseFlagValue({ name: 'help', type: 'bool', default: '', help: '' }, token.value);
      continue;
    }
    const [key, spec] = found;
    const text = token.value ?? (spec.type === 'bool' ? 'true' : undefined);
    if (text === undefined) throw new FlagError(`flag needs an argument: --${spec.name}`);
    set(key, spec, text);
  }
  for (const [key, spec] of Object.entries(specs))
    if (!(key in values)) values[key] = parseFlagValue(spec, spec.default);
  return { options: values as OptionsOf<S>, args, help, changed };
}

/** The options of the defaults alone (what an empty command line gives), with `overrides` on top. */
export function defaultOptions<S extends FlagSpecs>(specs: S, overrides: Partial<OptionsOf<S>> = {}): OptionsOf<S> {
  return { ...parseCommandLine([], specs).options, ...overrides };
}

/**
 * The flag lines of `--help`: `  --name=type` (`  -n, --name=type` with a shorthand) padded to `pad`
 * columns, the help, the default (`(default "...")` when not empty), then the `--help` line itself.
 * A flag too long for the column (less than two spaces left) has its help on the next line, at `pad`.
 */
export function flagHelp(specs: FlagSpecs, pad: number): string[] {
  const label: Readonly<Record<FlagType, string>> = {
    string: '=string',
    int: '=int',
    bool: '',
    duration: '=duration',
    stringSlice: '=string',
    stringArray: '=string (repeatable)',
  };
  const line = (s: Pick<FlagSpec, 'name' | 'type' | 'help' | 'default' | 'short'>): string => {
    const head = `  ${s.short ? `-${s.short}, ` : ''}--${s.name}${label[s.type]}`;
    const text = `${s.help}${s.default ? ` (default ${JSON.stringify(s.default)})` : ''}`;
    return head.length + 2 <= pad ? `${head.padEnd(pad)}${text}` : `${head}\n${' '.repeat(pad)}${text}`;
  };
  return [
    ...Object.values(specs).map(line),
    line({ name: 'help', type: 'bool', help: 'Print this help and exit.', default: '' }),
  ];
}
