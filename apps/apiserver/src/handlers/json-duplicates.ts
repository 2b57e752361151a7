const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

interface Frame {
  keys: Set<string> | null;
  path: string;
  index: number;
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
  const childPath = (): string => {
    if (!top) return '';
    if (top.keys) return top.path ? `${top.path}.${pendingKey ?? ''}` : (pendingKey ?? '');
    return `${top.path}[${top.index}]`;
  };
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
          if (top.keys.has(key)) dups.push(top.path ? `${top.path}.${key}` : key);
          top.keys.add(key);
          pendingKey = key;
        }
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case 123: // {
        top = { keys: new Set(), path: childPath(), index: 0 };
        stack.push(top);
        pendingKey = undefined;
        break;
      case 91: // [
        top = { keys: null, path: childPath(), index: 0 };
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
