/**
 * cel-go `string.format(list)` (ext.Strings): `%s %d %f %e %x %X %o %b %%`, with an optional
 * precision (`%.2f`). Throws an Error whose message follows cel-go's wording.
 */
export function formatString(template: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    if (template[i] === '%') {
      out += '%';
      continue;
    }
    let precision: number | undefined;
    if (template[i] === '.') {
      let digits = '';
      for (i++; i < template.length && /[0-9]/.test(template[i]!); i++) digits += template[i];
      precision = Number(digits);
    }
    const verb = template[i];
    if (verb === undefined) throw new Error('unexpected end of format string');
    if (argIndex >= args.length) throw new Error(`index ${argIndex} out of range`);
    out += formatOne(verb, args[argIndex++], precision);
  }
  return out;
}

function formatOne(verb: string, v: unknown, precision: number | undefined): string {
  switch (verb) {
    case 's':
      return stringOf(v);
    case 'd':
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
      if (typeof v === 'number' && !Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      throw new Error(`error during formatting: decimal clause can only be used on integers, was given ${typeName(v)}`);
    case 'f':
    case 'e': {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number')
        throw new Error(
          `error during formatting: fixed-point clause can only be used on doubles, was given ${typeName(v)}`,
        );
      if (Number.isNaN(n)) return 'NaN';
      if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
      if (verb === 'f') return n.toFixed(precision ?? 6);
      const [m, e] = n.toExponential(precision ?? 6).split('e');
      const exp = Number(e);
      return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    }
    case 'x':
    case 'X': {
      let s: string;
      if (typeof v === 'bigint') s = (v < 0n ? '-' : '') + (v < 0n ? -v : v).toString(16);
      else if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex');
      else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex');
      else
        throw new Error(
          `error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`,
        );
      return verb === 'X' ? s.toUpperCase() : s;
    }
    case 'o':
    case 'b':
      if (typeof v !== 'bigint')
        throw new Error(
          `error during formatting: ${verb === 'o' ? 'octal' : 'binary'} clause can only be used on integers, was given ${typeName(v)}`,
        );
      return (v < 0n ? '-' : '') + (v < 0n ? -v : v).toString(verb === 'o' ? 8 : 2);
    default:
      throw new Error(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  }
}

function typeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null_type';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

function stringOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(stringOfNested).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${stringOfNested(k)}: ${stringOfNested(x)}`).join(', ')}}`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${stringOfNested(k)}: ${stringOfNested(x)}`)
      .join(', ')}}`;
  return String(v);
}

function stringOfNested(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : stringOf(v);
}
