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

function splitTerms(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[++i]!;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** Parses a Kubernetes field selector (`involvedObject.name=x,type!=Normal`). */
export function parseFieldSelector(s: string | undefined): FieldSelector {
  const src = (s ?? '').trim();
  const requirements: FieldRequirement[] = [];
  if (src) {
    for (const term of splitTerms(src)) {
      const m = /^(.*?)(==|!=|=)(.*)$/s.exec(term.replace(/\\[=!]/g, (x) => (x === '\\=' ? '\u0000' : '\u0001')));
      if (!m) throw new SelectorParseError(`invalid selector: '${src}'; can't understand '${term}'`);
      const back = (x: string): string => unescape(x.replace(/\u0000/g, '\\=').replace(/\u0001/g, '\\!'));
      requirements.push({ field: back(m[1]!.trim()), op: m[2] === '!=' ? '!=' : '=', value: back(m[3]!) });
    }
  }
  return {
    requirements,
    matches: (get) => requirements.every((r) => (get(r.field) === r.value) === (r.op === '=')),
  };
}
