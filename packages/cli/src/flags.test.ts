import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { defaultOptions, FlagError, flagHelp, parseCommandLine } from './flags.js';
import type { FlagSpecs } from './flags.js';

const specs = {
  bindAddress: { name: 'bind-address', type: 'string', default: '127.0.0.1', help: 'Address.' },
  port: { name: 'port', type: 'int', default: '6443', help: 'Port.' },
  verbose: { name: 'verbose', type: 'bool', default: 'false', help: 'Talk.' },
  leaderElect: { name: 'leader-elect', type: 'bool', default: 'true', help: 'Lead.' },
  timeout: { name: 'timeout', type: 'duration', default: '1m0s', help: 'Timeout.' },
  headers: { name: 'headers', type: 'stringSlice', default: 'X-Remote-User', help: 'Headers.' },
  sources: { name: 'source', type: 'stringArray', default: '', help: 'Sources.' },
  format: { name: 'log-format', type: 'string', default: 'json', help: 'Format.', values: ['json', 'text'] },
} as const satisfies FlagSpecs;

const parse = (argv: readonly string[]) => parseCommandLine(argv, specs);
const error = (argv: readonly string[], set: FlagSpecs = specs): string => {
  try {
    parseCommandLine(argv, set);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
};

describe('parseCommandLine', () => {
  it('fills typed defaults from the default texts', () => {
    expect(parse([])).toEqual({
      options: {
        bindAddress: '127.0.0.1',
        port: 6443,
        verbose: false,
        leaderElect: true,
        timeout: 60_000,
        headers: ['X-Remote-User'],
        sources: [],
        format: 'json',
      },
      args: [],
      help: false,
      changed: new Set(),
    });
  });

  it('parses every type in both spellings and records what was given', () => {
    const r = parse([
      '--bind-address',
      '0.0.0.0',
      '--port=8080',
      '--verbose',
      '--leader-elect=false',
      '--timeout',
      '1.5s',
      '--headers=A, B,,C',
      '--source=a=/x',
      '--source',
      'b=/y',
      'serve',
    ]);
    expect(r.options).toEqual({
      bindAddress: '0.0.0.0',
      port: 8080,
      verbose: true,
      leaderElect: false,
      timeout: 1500,
      headers: ['A', 'B', 'C'],
      sources: ['a=/x', 'b=/y'],
      format: 'json',
    });
    expect(r.args).toEqual(['serve']);
    expect([...r.changed].sort()).toEqual([
      'bind-address',
      'headers',
      'leader-elect',
      'port',
      'source',
      'timeout',
      'verbose',
    ]);
  });

  it('lets a later scalar win and appends repeated lists (the first replacing the default)', () => {
    const r = parse(['--port=1', '--port=2', '--headers=A', '--headers=B,C']);
    expect(r.options.port).toBe(2);
    expect(r.options.headers).toEqual(['A', 'B', 'C']);
  });

  it("accepts Go's bool spellings and takes the next argument as a value whatever it looks like", () => {
    for (const [v, b] of [
      ['1', true],
      ['t', true],
      ['True', true],
      ['0', false],
      ['F', false],
      ['FALSE', false],
    ] as const)
      expect(parse([`--verbose=${v}`]).options.verbose).toBe(b);
    expect(parse(['--bind-address', '--port=1']).options).toMatchObject({ bindAddress: '--port=1', port: 6443 });
    // A bool flag never takes the next argument.
    expect(parse(['--verbose', 'false'])).toMatchObject({ options: { verbose: true }, args: ['false'] });
  });

  it('knows --help and -h (which ends its shorthand group); a lone - and what follows -- are arguments', () => {
    expect(parse(['--help']).help).toBe(true);
    expect(parse(['-h']).help).toBe(true);
    expect(parse(['-hx']).help).toBe(true);
    expect(parse(['--help=false']).help).toBe(false);
    expect(parse(['-', '--', '--port=1', '-x']).args).toEqual(['-', '--port=1', '-x']);
    expect(parse(['--', '--port=1']).options.port).toBe(6443);
  });

  it("words errors as pflag does, with Go's duration errors", () => {
    expect(error(['--nope'])).toBe('unknown flag: --nope');
    expect(error(['--port'])).toBe('flag needs an argument: --port');
    expect(error(['--port=x'])).toBe('invalid argument "x" for "--port" flag: parse error');
    expect(error(['--port=-1'])).toBe('invalid argument "-1" for "--port" flag: parse error');
    expect(error(['--verbose=maybe'])).toBe('invalid argument "maybe" for "--verbose" flag: parse error');
    expect(error(['--verbose='])).toBe('invalid argument "" for "--verbose" flag: parse error');
    expect(error(['--timeout=5'])).toBe(
      'invalid argument "5" for "--timeout" flag: time: missing unit in duration "5"',
    );
    expect(error(['--timeout=x'])).toBe('invalid argument "x" for "--timeout" flag: time: invalid duration "x"');
    expect(error(['--timeout=-1s'])).toBe('invalid argument "-1s" for "--timeout" flag: can not be negative');
    expect(error(['--log-format=yaml'])).toBe('invalid argument "yaml" for "--log-format" flag: must be json or text');
    expect(error(['--help=maybe'])).toBe('invalid argument "maybe" for "--help" flag: parse error');
    expect(error(['-x'])).toBe("unknown shorthand flag: 'x' in -x");
  });

  it('overrides defaults for tests', () => {
    expect(defaultOptions(specs, { port: 1 })).toMatchObject({ port: 1, bindAddress: '127.0.0.1' });
  });
});

const valueFlags = Object.values(specs).filter((s) => s.type !== 'bool' && !('values' in s));
const boolFlags = Object.values(specs).filter((s) => s.type === 'bool');
const known = new Set([...Object.values(specs).map((s) => s.name), 'help']);

/** A valid value text for a flag of each type. */
const valueFor = (type: string): fc.Arbitrary<string> => {
  switch (type) {
    case 'int':
      return fc.nat().map(String);
    case 'duration':
      return fc
        .tuple(fc.nat({ max: 99 }), fc.constantFrom('ns', 'us', 'µs', 'ms', 's', 'm', 'h'))
        .map(([n, u]) => `${n}${u}`);
    default:
      return fc.string();
  }
};

/** One flag occurrence, as `[--name=value]`, `[--name, value]` and the bool forms. */
const occurrence = fc.oneof(
  fc.constantFrom(...valueFlags).chain((s) => valueFor(s.type).map((v) => ({ name: s.name, value: v, bool: false }))),
  fc.constantFrom(...boolFlags).chain((s) => fc.boolean().map((b) => ({ name: s.name, value: String(b), bool: true }))),
);

describe('parseCommandLine properties', () => {
  it('--flag=value and --flag value mean the same (and --flag alone is --flag=true for bools)', () => {
    fc.assert(
      fc.property(fc.array(occurrence, { maxLength: 12 }), (occ) => {
        const joined = occ.map((o) => `--${o.name}=${o.value}`);
        const split = occ.flatMap((o) =>
          o.bool ? (o.value === 'true' ? [`--${o.name}`] : [`--${o.name}=false`]) : [`--${o.name}`, o.value],
        );
        expect(parse(split)).toEqual(parse(joined));
      }),
    );
  });

  it('a flag not in the set is refused by name, wherever it stands', () => {
    const unknownName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((n) => !known.has(n));
    fc.assert(
      fc.property(
        fc.array(occurrence, { maxLength: 5 }),
        unknownName,
        fc.option(fc.string(), { nil: undefined }),
        (before, name, value) => {
          const argv = [
            ...before.map((o) => `--${o.name}=${o.value}`),
            value === undefined ? `--${name}` : `--${name}=${value}`,
            '--port=1',
          ];
          expect(() => parse(argv)).toThrow(new FlagError(`unknown flag: --${name}`));
        },
      ),
    );
  });

  it('ints and durations come out as numbers (durations in milliseconds)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 10_000_000 }), (n, ms) => {
        const r = parse([`--port=${n}`, `--timeout=${ms}ms`]);
        expect(r.options.port).toBe(n);
        expect(r.options.timeout).toBe(ms);
      }),
    );
  });
});

describe('shorthand flags', () => {
  const shortSpecs = {
    output: { name: 'output', short: 'o', type: 'string', default: 'text', help: 'Format.', values: ['text', 'json'] },
    quiet: { name: 'quiet', short: 'q', type: 'bool', default: 'false', help: 'Quiet.' },
    verbose: { name: 'verbose', short: 'v', type: 'bool', default: 'false', help: 'Talk.' },
  } as const satisfies FlagSpecs;
  const parseShort = (argv: readonly string[]) => parseCommandLine(argv, shortSpecs);
  const shortError = (argv: readonly string[]): string => error(argv, shortSpecs);

  it('reads -o json, -ojson, -o=json and --output=json alike, and groups bool shorthands', () => {
    for (const argv of [
      ['-o', 'json', 'f'],
      ['-ojson', 'f'],
      ['-o=json', 'f'],
      ['--output=json', 'f'],
      ['f', '-o', 'json'],
    ])
      expect(parseShort(argv)).toMatchObject({
        options: { output: 'json' },
        args: ['f'],
        changed: new Set(['output']),
      });
    expect(parseShort(['-qv']).options).toMatchObject({ quiet: true, verbose: true });
    expect(parseShort(['-qojson']).options).toMatchObject({ quiet: true, verbose: false, output: 'json' });
    expect(parseShort(['-vq=false']).options).toMatchObject({ quiet: false, verbose: true });
    expect(parseShort(['-qh']).help).toBe(true);
  });

  it('words shorthand errors as pflag does', () => {
    expect(shortError(['-x'])).toBe("unknown shorthand flag: 'x' in -x");
    expect(shortError(['-qxv'])).toBe("unknown shorthand flag: 'x' in -xv");
    expect(shortError(['-o'])).toBe("flag needs an argument: 'o' in -o");
    expect(shortError(['-o', 'yaml'])).toBe('invalid argument "yaml" for "-o, --output" flag: must be text or json');
    expect(shortError(['--output=yaml'])).toBe('invalid argument "yaml" for "-o, --output" flag: must be text or json');
  });

  it('prints the shorthand in --help', () => {
    expect(flagHelp(shortSpecs, 24)[0]).toBe('  -o, --output=string   Format. (default "text")');
  });
});

describe('flagHelp', () => {
  it('prints type, help and default of each flag, then --help', () => {
    expect(flagHelp(specs, 24)).toEqual([
      '  --bind-address=string\n                        Address. (default "127.0.0.1")',
      '  --port=int            Port. (default "6443")',
      '  --verbose             Talk. (default "false")',
      '  --leader-elect        Lead. (default "true")',
      '  --timeout=duration    Timeout. (default "1m0s")',
      '  --headers=string      Headers. (default "X-Remote-User")',
      '  --source=string (repeatable)\n                        Sources.',
      '  --log-format=string   Format. (default "json")',
      '  --help                Print this help and exit.',
    ]);
  });
});
