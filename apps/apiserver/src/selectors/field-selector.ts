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

/** The first unescaped `==`, `!=` or `=` in a term. */
function findOperator(term: string): { at: number; op: '==' | '!=' | '=' } | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '!' && term[i + 1] === '=') return { at: i, op: '!=' };
    if (c === '=') return { at: i, op: term[i + 1] === '=' ? '==' : '=' };
  }
  return undefined;
}

/** Parses a Kubernetes field selector (`involvedObject.name=x,type!=Normal`). */
export function parseFieldSelector(s: string | undefined): FieldSelector {
  const src = (s ?? '').trim();
  const requirements: FieldRequirement[] = [];
  if (src) {
    for (const term of splitTerms(src)) {
      const op = findOperator(term);
      if (!op) throw new SelectorParseError(`invalid selector: '${src}'; can't understand '${term}'`);
      const m = [term, term.slice(0, op.at), op.op, term.slice(op.at + op.op.length)] as const;
      const back = unescape;
      requirements.push({ field: back(m[1]!.trim()), op: m[2] === '!=' ? '!=' : '=', value: back(m[3]!) });
    }
  }
  return {
    requirements,
    matches: (get) => requirements.every((r) => (get(r.field) === r.value) === (r.op === '=')),
  };
}
