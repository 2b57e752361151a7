/** A parsed label selector; `matches` tests a label map. */
export interface LabelSelector {
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  toString(): string;
}

type Op = 'exists' | '!' | '=' | '!=' | 'in' | 'notin' | 'gt' | 'lt';
interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

/** A selector parse error; the HTTP layer answers 400 with its message. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

const tokenRe = /\s*(\(|\)|,|==|!=|=|!|>|<|[^\s(),=!<>]+)/y;

function tokenize(s: string): string[] {
  const out: string[] = [];
  tokenRe.lastIndex = 0;
  let i = 0;
  while (i < s.length) {
    if (/^\s*$/.test(s.slice(i))) break;
    tokenRe.lastIndex = i;
    const m = tokenRe.exec(s);
    if (!m) throw new SelectorParseError(`unable to parse requirement: invalid selector: '${s}'`);
    out.push(m[1]!);
    i = tokenRe.lastIndex;
  }
  return out;
}

function parseRequirements(s: string): Requirement[] {
  const t = tokenize(s);
  const reqs: Requirement[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new SelectorParseError(`unable to parse requirement: found '${t[i] ?? ''}', expected: ${what}`);
  };
  const isIdent = (x: string | undefined): x is string => x !== undefined && !['(', ')', ',', '=', '==', '!=', '!', '>', '<'].includes(x);
  while (i < t.length) {
    if (t[i] === '!') {
      i++;
      if (!isIdent(t[i])) fail('identifier');
      reqs.push({ key: t[i++]!, op: '!', values: [] });
    } else {
      if (!isIdent(t[i])) fail('identifier');
      const key = t[i++]!;
      const op = t[i];
      if (op === undefined || op === ',') {
        reqs.push({ key, op: 'exists', values: [] });
      } else if (op === '=' || op === '==' || op === '!=') {
        i++;
        const v = isIdent(t[i]) ? t[i++]! : '';
        reqs.push({ key, op: op === '!=' ? '!=' : '=', values: [v] });
      } else if (op === '>' || op === '<') {
        i++;
        if (!isIdent(t[i]) || !/^-?\d+$/.test(t[i]!)) fail('integer');
        reqs.push({ key, op: op === '>' ? 'gt' : 'lt', values: [t[i++]!] });
      } else if (op === 'in' || op === 'notin') {
        i++;
        if (t[i] !== '(') fail("'('");
        i++;
        const values: string[] = [];
        while (t[i] !== ')') {
          if (isIdent(t[i])) values.push(t[i++]!);
          else if (t[i] === ',') {
            if (values.length === 0 || t[i - 1] === ',') values.push('');
            i++;
          } else fail("',', ')' or identifier");
        }
        i++;
        reqs.push({ key, op, values });
      } else {
        fail("'=', '!=', '==', 'in', notin'");
      }
    }
    if (i < t.length) {
      if (t[i] !== ',') fail("','");
      i++;
    }
  }
  return reqs;
}

const matchOne = (r: Requirement, labels: Readonly<Record<string, string>>): boolean => {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
      return has && v === r.values[0];
    case '!=':
      return !has || v !== r.values[0];
    case 'in':
      return has && r.values.includes(v!);
    case 'notin':
      return !has || !r.values.includes(v!);
    case 'gt':
      return has && /^-?\d+$/.test(v!) && Number(v) > Number(r.values[0]);
    case 'lt':
      return has && /^-?\d+$/.test(v!) && Number(v) < Number(r.values[0]);
  }
};

/** Parses a Kubernetes label selector (`a=b,c!=d,e in (x,y),!f,g`). */
export function parseLabelSelector(s: string | undefined): LabelSelector {
  const src = (s ?? '').trim();
  const reqs = src ? parseRequirements(src) : [];
  return {
    empty: reqs.length === 0,
    matches: (labels) => reqs.every((r) => matchOne(r, labels ?? {})),
    toString: () => src,
  };
}
