import { goFormatNumber } from './go-number.js';

/**
 * Decoded JSON as Go's `%v` (and `%+v`) prints the `map[string]interface{}` it decodes into:
 * `map[a:1 b:[x <nil>]]`, keys sorted, strings bare, integers in decimal, other numbers as
 * {@link goFormatNumber} prints them. Iterative, so any nesting prints.
 */
export function goFormatValue(value: unknown): string {
  let out = '';
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof Text) {
      out += v.text;
    } else if (v === null || v === undefined) {
      out += '<nil>';
    } else if (Array.isArray(v)) {
      stack.push(new Text(']'));
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        if (i > 0) stack.push(new Text(' '));
      }
      out += '[';
    } else if (typeof v === 'object') {
      const keys = Object.keys(v).sort(compareBytes);
      stack.push(new Text(']'));
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((v as Record<string, unknown>)[keys[i]!]);
        stack.push(new Text(`${i > 0 ? ' ' : ''}${keys[i]!}:`));
      }
      out += 'map[';
    } else if (typeof v === 'number') {
      out += goFormatNumber(v);
    } else {
      out += String(v);
    }
  }
  return out;
}

class Text {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Go's string order: by UTF-8 bytes (UTF-16 order differs only past the surrogates). */
const compareBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
