import { SelectorParseError } from './label-selector.js';

/** One `field=value` / `field!=value` term of a field selector. */
export interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

/** A parsed field selector: requirements that must all hold. */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  /** Tests a function that returns the value of a (supported) field label. */
  matches(get: (field: string) => string): boolean;
}

/** Splits on commas that are not escaped (`fields.splitTerms`). */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** The first operator in a term, `!=` and `==` before `=` (`fields.splitTerm`; the field is not unescaped). */
function splitTerm(term: string): { field: string; op: '=' | '!='; raw: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    if (term.startsWith('!=', i)) return { field: term.slice(0, i), op: '!=', raw: term.slice(i + 2) };
    if (term.startsWith('==', i)) return { field: term.slice(0, i), op: '=', raw: term.slice(i + 2) };
    if (term[i] === '=') return { field: term.slice(0, i), op: '=', raw: term.slice(i + 1) };
  }
  return undefined;
}

/** `fields.UnescapeValue`: `\\`, `\,` and `\=` are the only escapes; a bare `,` or `=` is refused. */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/**
 * Parses a Kubernetes field selector (`involvedObject.name=x,type!=Normal`) as
 * `fields.ParseSelector` does: terms split on unescaped commas, empty terms skipped, the first
 * `!=`, `==` or `=` splits a term, values unescaped, nothing trimmed, a term of neither field
 * nor value (`=`, `!=`, `==`) dropped.
 */
export function parseFieldSelector(s: string | undefined): FieldSelector {
  const src = s ?? '';
  const requirements: FieldRequirement[] = [];
  for (const term of src ? splitTerms(src).sort() : []) {
    if (term === '') continue;
    const t = splitTerm(term);
    if (!t) throw new SelectorParseError(`invalid selector: '${src}'; can't understand '${term}'`);
    const value = unescapeValue(t.raw);
    // A term with neither field nor value selects everything (`hasTerm.Transform`) and is dropped.
    if (t.field === '' && value === '') continue;
    requirements.push({ field: t.field, op: t.op, value });
  }
  return {
    requirements,
    matches: (get) => requirements.every((r) => (get(r.field) === r.value) === (r.op === '=')),
  };
}
