const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;

interface Frame {
  keys: Set<string> | null;
  /** The enclosing frame and this frame's key (object member) or index (array element) in it. */
  parent: Frame | undefined;
  at: string | number | undefined;
  index: number;
}

/** The dotted path of a frame, built only when a duplicate is found (iteratively: frames nest as deep as the text). */
function pathOf(f: Frame | undefined): string {
  const parts: (string | number)[] = [];
  for (let x = f; x !== undefined && x.parent !== undefined; x = x.parent) parts.push(x.at!);
  let out = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const at = parts[i]!;
    out = typeof at === 'number' ? `${out}[${at}]` : out ? `${out}.${at}` : String(at);
  }
  return out;
}

/**
 * How many object members a JSON text spells out (a string followed by `:` is a member name),
 * counting no further than `limit + 1`.
 */
export function countMemberNames(text: string, limit = Infinity): number {
  let n = 0;
  const length = text.length;
  let i = text.indexOf('"');
  while (i >= 0) {
    let end = text.indexOf('"', i + 1);
    while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
      let bs = 0;
      for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) bs++;
      if (bs % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    if (end < 0) break;
    let j = end + 1;
    while (j < length && text.charCodeAt(j) <= 32) j++;
    const after = text.charCodeAt(j);
    if (after === COLON && ++n > limit) return n;
    // The next string mostly opens right after the colon or comma (and blanks): found without a
    // search (the characters passed over hold no quote, so it is the one a search would find).
    if (after === COLON || after === COMMA) {
      j++;
      while (j < length && text.charCodeAt(j) <= 32) j++;
      if (text.charCodeAt(j) === QUOTE) {
        i = j;
        continue;
      }
    }
    i = text.indexOf('"', end + 1);
  }
  return n;
}

/** How many object members, and values (members and array elements), a parsed JSON value holds at every depth (without recursion). */
function countMembersAndValues(value: unknown): { members: number; values: number } {
  let members = 0;
  let elements = 0;
  if (value === null || typeof value !== 'object') return { members, values: 0 };
  // Only containers are stacked: a list of a million scalars is counted by its length.
  const stack: object[] = [value];
  while (stack.length) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      elements += v.length;
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') stack.push(x);
      }
      continue;
    }
    // Values, not keys: reading each member by its name goes through one megamorphic load for
    // every shape of object parsed.
    const xs = Object.values(v) as unknown[];
    members += xs.length;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return { members, values: members + elements };
}

/** What one walk of a parsed JSON text finds: whether a member may repeat, and how many values it holds. */
export interface JsonTextScan {
  /** Whether the text may hold a duplicate member (see {@link hasDuplicateKeys}). */
  readonly duplicates: boolean;
  /** Object members and array elements at every depth, the root not counted. */
  readonly values: number;
}

/**
 * {@link hasDuplicateKeys} and the parsed value's count of values, in one walk of each; `names`
 * is the text's {@link countMemberNames} when the caller has it already.
 */
export function scanJsonText(text: string, parsed: unknown, names = countMemberNames(text)): JsonTextScan {
  const { members, values } = countMembersAndValues(parsed);
  return { duplicates: names !== members, values };
}

/**
 * Whether a JSON text may hold a duplicate member: JSON.parse keeps one member per name, so the
 * parsed value has fewer members than the text spells out exactly when some name repeats. A
 * cheap, allocation-free check that lets {@link findDuplicateKeys} run only when it will find
 * something.
 */
export function hasDuplicateKeys(text: string, parsed: unknown): boolean {
  return scanJsonText(text, parsed).duplicates;
}

/**
 * Finds duplicate object keys in a JSON text (JSON.parse keeps the last one silently), as
 * Kubernetes' strict decoder reports them. Returns the dotted paths of the duplicates.
 * Assumes the text is valid JSON (call it after JSON.parse succeeded).
 */
export function findDuplicateKeys(text: string): string[] {
  const dups: string[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let top: Frame | undefined;
  let pendingKey: string | undefined;
  let i = 0;
  const child = (keys: Set<string> | null): Frame => ({
    keys,
    parent: top,
    at: top ? (top.keys ? (pendingKey ?? '') : top.index) : undefined,
    index: 0,
  });
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      let escaped = false;
      while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
        let bs = 0;
        for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) bs++;
        if (bs % 2 === 0) break;
        escaped = true;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) break;
      if (top?.keys && pendingKey === undefined) {
        let j = end + 1;
        while (j < n && text.charCodeAt(j) <= 32) j++;
        if (text.charCodeAt(j) === COLON) {
          const raw = text.slice(i + 1, end);
          const key = escaped || raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
          if (top.keys.has(key)) {
            const p = pathOf(top);
            dups.push(p ? `${p}.${key}` : key);
          }
          top.keys.add(key);
          pendingKey = key;
        }
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case 123: // {
        top = child(new Set());
        stack.push(top);
        pendingKey = undefined;
        break;
      case 91: // [
        top = child(null);
        stack.push(top);
        break;
      case 125: // }
      case 93: // ]
        stack.pop();
        top = stack[stack.length - 1];
        break;
      case 44: // ,
        if (top && !top.keys) top.index++;
        pendingKey = undefined;
        break;
    }
    i++;
  }
  return dups;
}
