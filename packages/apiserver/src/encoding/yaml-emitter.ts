import { codePointAt, isBreak, isPrintable } from './yaml-scalar-analysis.js';

/** libyaml's `best_width`: past this column a space in a scalar becomes a line break. */
const bestWidth = 80;

const namedEscapes = new Map<number, string>([
  [0x00, '\\0'],
  [0x07, '\\a'],
  [0x08, '\\b'],
  [0x09, '\\t'],
  [0x0a, '\\n'],
  [0x0b, '\\v'],
  [0x0c, '\\f'],
  [0x0d, '\\r'],
  [0x1b, '\\e'],
  [0x22, '\\"'],
  [0x5c, '\\\\'],
  [0x85, '\\N'],
  [0xa0, '\\_'],
  [0x2028, '\\L'],
  [0x2029, '\\P'],
]);

/** Whether this host stores a Uint16Array's units high byte first. */
const bigEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 0;

const hexDigits = '0123456789ABCDEF';

/**
 * The writing half of libyaml's emitter as goyaml v2 ports it (emitterc.go), for block
 * collections and scalars outside flow collections: the output so far, the column (counted in
 * characters), and its `whitespace` (the last thing written was a space or the line's start) and
 * `indention` (only indentation so far on this line) flags, which decide where spaces and line
 * breaks go. Every scalar written here is valid for its style (the caller ran the analysis);
 * scalars that goyaml writes only in double quotes (astral characters, controls) never reach the
 * other writers, so a UTF-16 length counts their columns.
 */
export class YamlEmitter {
  /**
   * The output not yet taken, as UTF-16 code units: written a character at a time as libyaml
   * does, with no string made per word, space or escape (pieces of a few characters each made
   * 3 MB of `a a a …` or of control characters cost 0.3-1 s, most of it collecting garbage).
   */
  private units = new Uint16Array(64);
  /** How many units of the output are not yet taken. */
  length = 0;
  /** A unit past U+00FF is among them (else they are taken as a one-byte string, which writes faster). */
  private wide = false;
  column = 0;
  whitespace = true;
  indention = true;

  /** The output written since the last call, as a string. */
  take(): string {
    const n = this.length;
    this.length = 0;
    if (!this.wide) return Buffer.from(new Uint8Array(this.units.subarray(0, n)).buffer, 0, n).toString('latin1');
    this.wide = false;
    const bytes = Buffer.from(this.units.buffer, 0, 2 * n);
    if (bigEndian) return Buffer.from(bytes).swap16().toString('utf16le');
    return bytes.toString('utf16le');
  }

  /** Room for `n` more units. */
  private reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.units.length) return;
    const grown = new Uint16Array(Math.max(need, 2 * this.units.length));
    grown.set(this.units.subarray(0, this.length));
    this.units = grown;
  }

  /** Writes `s[from, to)` (no line breaks); the column is the caller's. */
  private put(s: string, from = 0, to = s.length): void {
    this.reserve(to - from);
    const units = this.units;
    let n = this.length;
    let all = 0;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      units[n++] = c;
      all |= c;
    }
    this.length = n;
    if (all > 0xff) this.wide = true;
  }

  /** Writes one code unit; the column is the caller's. */
  private unit(c: number): void {
    if (this.length === this.units.length) this.reserve(1);
    this.units[this.length++] = c;
    if (c > 0xff) this.wide = true;
  }

  putBreak(): void {
    this.unit(10);
    this.column = 0;
  }

  /** `yaml_emitter_write_indent`: a line break unless only indentation is on the line, then spaces to `indent`. */
  writeIndent(indent: number): void {
    if (indent < 0) indent = 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) {
      this.reserve(indent - this.column);
      this.units.fill(32, this.length, this.length + indent - this.column);
      this.length += indent - this.column;
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  /** `yaml_emitter_write_indicator`. */
  writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) {
      this.unit(32);
      this.column++;
    }
    this.put(indicator);
    this.column += indicator.length;
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** Text without spaces or line breaks (a number, `true`, `null`) as a plain scalar. */
  word(text: string): void {
    if (!this.whitespace) {
      this.unit(32);
      this.column++;
    }
    this.put(text);
    this.column += text.length;
    this.whitespace = false;
    this.indention = false;
  }

  /** `yaml_emitter_write_plain_scalar` (a plain scalar has no line breaks), a line at a time. */
  plain(value: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) {
      this.unit(32);
      this.column++;
    }
    const n = value.length;
    if (!allowBreaks || this.column + n <= bestWidth + 1 || !value.includes(' ')) {
      this.put(value);
      this.column += n;
    } else {
      // A space folds when the column has passed the best width, it follows a non-space (or
      // starts the value) and a non-space follows it; the fold takes its place.
      let from = 0;
      for (let i = value.indexOf(' '); i >= 0; i = value.indexOf(' ', i + 1)) {
        if (i > 0 && value.charCodeAt(i - 1) === 32) continue;
        if (this.column + (i - from) <= bestWidth || value.charCodeAt(i + 1) === 32) continue;
        if (i > from) {
          this.text(value, from, i);
          this.indention = false;
        }
        this.writeIndent(indent);
        from = i + 1;
      }
      this.text(value, from, n);
    }
    this.whitespace = false;
    this.indention = false;
  }

  /** `yaml_emitter_write_single_quoted_scalar`. */
  singleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const n = value.length;
    let spaced = false;
    let breaks = false;
    for (let i = 0; i < n;) {
      const c = value.charCodeAt(i);
      if (c === 32) {
        const fold = allowBreaks && !spaced && this.column > bestWidth && i > 0 && i < n - 1;
        if (fold && value.charCodeAt(i + 1) !== 32) this.writeIndent(indent);
        else this.text(' ');
        spaced = true;
        i++;
      } else if (isBreak(c)) {
        if (!breaks && c === 10) this.putBreak();
        this.writeBreak(value[i]!);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        if (c === 39) {
          this.text("''");
          i++;
        } else {
          let j = i + 1;
          for (; j < n; j++) {
            const d = value.charCodeAt(j);
            if (d === 32 || d === 39 || isBreak(d)) break;
          }
          this.text(value, i, j);
          i = j;
        }
        this.indention = false;
        spaced = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /** `yaml_emitter_write_double_quoted_scalar`. */
  doubleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const n = value.length;
    // libyaml's is_bom looks at the value's start, not at the character: after a leading BOM
    // every character is escaped.
    const bom = value.charCodeAt(0) === 0xfeff;
    let spaced = false;
    for (let i = 0; i < n;) {
      const c = codePointAt(value, i);
      if (bom || !isPrintable(c) || isBreak(c) || c === 34 || c === 92) {
        this.escape(c);
        spaced = false;
        i += c > 0xffff ? 2 : 1;
      } else if (c === 32) {
        if (allowBreaks && !spaced && this.column > bestWidth && i > 0 && i < n - 1) {
          this.writeIndent(indent);
          if (value.charCodeAt(i + 1) === 32) this.text('\\');
        } else this.text(' ');
        spaced = true;
        i++;
      } else {
        let j = i + 1;
        for (; j < n; j++) {
          const d = value.charCodeAt(j);
          if (d === 32 || d === 34 || d === 92 || !isPrintable(d) || isBreak(d)) break;
        }
        this.text(value, i, j);
        spaced = false;
        i = j;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /** `yaml_emitter_write_literal_scalar` with its block scalar hints (indentation, chomping). */
  literal(value: string, indent: number): void {
    this.writeIndicator('|', true, false, false);
    const n = value.length;
    const first = value.charCodeAt(0);
    if (first === 32 || isBreak(first)) this.writeIndicator('2', false, false, false);
    const last = value.charCodeAt(n - 1);
    if (!isBreak(last)) this.writeIndicator('-', false, false, false);
    else if (n === 1 || isBreak(value.charCodeAt(n - 2))) this.writeIndicator('+', false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (let i = 0; i < n;) {
      if (isBreak(value.charCodeAt(i))) {
        this.writeBreak(value[i]!);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        let j = i + 1;
        while (j < n && !isBreak(value.charCodeAt(j))) j++;
        this.text(value, i, j);
        this.indention = false;
        breaks = false;
        i = j;
      }
    }
  }

  /** Characters without line breaks (`s[from, to)`), as libyaml's `write` puts them one by one. */
  private text(s: string, from = 0, to = s.length): void {
    this.put(s, from, to);
    this.column += to - from;
  }

  /** How libyaml writes a code point inside double quotes when it escapes it. */
  private escape(c: number): void {
    const named = namedEscapes.get(c);
    if (named !== undefined) return this.text(named);
    const digits = c <= 0xff ? 2 : c <= 0xffff ? 4 : 8;
    this.reserve(2 + digits);
    this.units[this.length++] = 92;
    this.units[this.length++] = digits === 2 ? 120 : digits === 4 ? 117 : 85;
    for (let shift = 4 * (digits - 1); shift >= 0; shift -= 4)
      this.units[this.length++] = hexDigits.charCodeAt((c >>> shift) & 15);
    this.column += 2 + digits;
  }

  /** libyaml's `write_break`: a line feed is the emitter's line break; LS and PS are copied. */
  private writeBreak(c: string): void {
    if (c === '\n') this.putBreak();
    else {
      this.unit(c.charCodeAt(0));
      this.column = 0;
    }
  }
}
