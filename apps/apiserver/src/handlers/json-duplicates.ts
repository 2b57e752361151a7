/**
 * Finds duplicate object keys in a JSON text (JSON.parse keeps the last one silently), as
 * Kubernetes' strict decoder reports them. Returns the dotted paths of the duplicates.
 * Assumes the text is valid JSON (call it after JSON.parse succeeded).
 */
export function findDuplicateKeys(text: string): string[] {
  const dups: string[] = [];
  const stack: { keys: Set<string> | null; path: string; index: number }[] = [];
  let i = 0;
  let pendingKey: string | undefined;
  const n = text.length;
  const readString = (): string => {
    const start = ++i;
    let escaped = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c === 34) break;
      i++;
    }
    const raw = text.slice(start, i);
    i++;
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  };
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.keys) return top.path ? `${top.path}.${pendingKey ?? ''}` : (pendingKey ?? '');
    return `${top.path}[${top.index}]`;
  };
  while (i < n) {
    const c = text[i]!;
    switch (c) {
      case '{':
        stack.push({ keys: new Set(), path: childPath(), index: 0 });
        pendingKey = undefined;
        i++;
        break;
      case '[':
        stack.push({ keys: null, path: childPath(), index: 0 });
        i++;
        break;
      case '}':
      case ']':
        stack.pop();
        i++;
        break;
      case ',': {
        const top = stack[stack.length - 1];
        if (top && !top.keys) top.index++;
        pendingKey = undefined;
        i++;
        break;
      }
      case '"': {
        const top = stack[stack.length - 1];
        const s = readString();
        if (top?.keys && pendingKey === undefined) {
          let j = i;
          while (j < n && (text[j] === ' ' || text[j] === '\n' || text[j] === '\t' || text[j] === '\r')) j++;
          if (text[j] === ':') {
            if (top.keys.has(s)) dups.push(top.path ? `${top.path}.${s}` : s);
            top.keys.add(s);
            pendingKey = s;
          }
        }
        break;
      }
      default:
        i++;
    }
  }
  return dups;
}
