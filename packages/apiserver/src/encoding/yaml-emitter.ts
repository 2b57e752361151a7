import { codePointAt, isBreak, isPrintable } from './yaml-scalar-analysis.js';

/** libyaml's `best_width`: past this column a space in a scalar becomes a line break. */
const bestWidth = 80;

const spaceRuns: string[] = [];
function spaces(n: number): string {
  return (spaceRuns[n] ??= ' '.repeat(n));
}

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

/** How libyaml writes a code point inside double quotes when it escapes it. */
function escape(c: number): string {
  const named = namedEscapes.get(c);
  if (named !== undefined) return named;
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (c <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

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
  /** The output so far, in pieces (a rope of millions of `+=` costs far more to collect). */
  readonly parts: string[] = [];
  column = 0;
  whitespace = true;
  indention = true;

  putBreak(): void {
    this.parts.push('\n');
    this.column = 0;
  }

  /** `yaml_emitter_write_indent`: a line break unless only indentation is on the line, then spaces to `indent`. */
  writeIndent(indent: number): void {
    if (indent < 0) indent = 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) {
      this.parts.push(spaces(indent - this.column));
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  /** `yaml_emitter_write_indicator`. */
  writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) {
      this.parts.push(' ');
      this.column++;
    }
    this.parts.push(indicator);
    this.column += indicator.length;
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** Text without spaces or line breaks (a number, `true`, `null`) as a plain scalar. */
  word(text: string): void {
    if (!this.whitespace) {
      this.parts.push(' ');
      this.column++;
    }
    this.parts.push(text);
    this.column += text.length;
    this.whitespace = false;
    this.indention = false;
  }

  /** `yaml_emitter_write_plain_scalar` (a plain scalar has no line breaks). */
  plain(value: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) {
      this.parts.push(' ');
      this.column++;
    }
    const n = value.length;
    if (!allowBreaks || this.column + n <= bestWidth + 1 || !value.includes(' ')) {
      this.parts.push(value);
      this.column += n;
    } else {
      let spaced = false;
      for (let i = 0; i < n;) {
        if (value.charCodeAt(i) === 32) {
          if (!spaced && this.column > bestWidth && value.charCodeAt(i + 1) !== 32) this.writeIndent(indent);
          else this.text(' ');
          spaced = true;
          i++;
        } else {
          let j = value.indexOf(' ', i);
          if (j < 0) j = n;
          this.text(value.slice(i, j));
          this.indention = false;
          spaced = false;
          i = j;
        }
      }
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
          this.text(value.slice(i, j));
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
        this.text(escape(c));
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
        this.text(value.slice(i, j));
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
        this.text(value.slice(i, j));
        this.indention = false;
        breaks = false;
        i = j;
      }
    }
  }

  /** Characters without line breaks, as libyaml's `write` puts them one by one. */
  private text(s: string): void {
    this.parts.push(s);
    this.column += s.length;
  }

  /** libyaml's `write_break`: a line feed is the emitter's line break; LS and PS are copied. */
  private writeBreak(c: string): void {
    if (c === '\n') this.putBreak();
    else {
      this.parts.push(c);
      this.column = 0;
    }
  }
}
