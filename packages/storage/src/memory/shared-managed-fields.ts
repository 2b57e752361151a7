import { parseJson } from '@kevents/api';
import { deepFreeze } from '../deep-freeze.js';
import { slotTime } from './interned-managed-fields.js';
import type { Template } from './interned-managed-fields.js';

/** What a template's times are replaced with to parse it once: a string no template holds elsewhere (checked). */
const placeholder = '\u0000';

/**
 * A managedFields template parsed once: its entries, deeply frozen, and which of them take the
 * array's times in turn (as their `time` member).
 */
interface SharedEntries {
  readonly entries: readonly Readonly<Record<string, unknown>>[];
  readonly timed: readonly boolean[];
}

const parsed = new WeakMap<Template, SharedEntries | false>();

/**
 * Templates are parsed until their texts reach this many characters in all (templates live as
 * long as the process; a few shapes of writers make nearly all of them): past it, arrays of
 * templates not parsed yet are decoded from their text.
 */
const maxParsedChars = 1 << 20;
let parsedChars = 0;

/** How many strings equal to the placeholder a parsed value holds. */
function placeholders(v: unknown): number {
  if (v === placeholder) return 1;
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const x of Object.values(v)) n += placeholders(x);
  return n;
}

/**
 * The template parsed with its times replaced; false when it is no array of objects whose times
 * are exactly their `time` members, one each in order (then its arrays are decoded from text).
 */
function parseTemplate(template: Template): SharedEntries | false {
  const slots = template.texts.length - 1;
  if (template.texts[0]!.charCodeAt(0) !== 91) return false;
  let value: unknown;
  try {
    value = parseJson(template.texts.join(JSON.stringify(placeholder)));
  } catch {
    return false;
  }
  if (!Array.isArray(value) || placeholders(value) !== slots) return false;
  const entries: Record<string, unknown>[] = [];
  const timed: boolean[] = [];
  let found = 0;
  for (const e of value as unknown[]) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    const entry = e as Record<string, unknown>;
    const isTimed = entry['time'] === placeholder;
    if (isTimed) found++;
    entries.push(deepFreeze(entry));
    timed.push(isTimed);
  }
  return found === slots ? { entries, timed } : false;
}

/**
 * The managedFields array interned at `at` of a packed body (its U+0000), as `JSON.parse` of its
 * text gives it but for sharing: each entry a new object with the members in the text's order,
 * its `time` this array's, every other member's value the one deeply frozen value of the
 * template (`fieldsV1` above all), shared with every array decoded so. Undefined when the
 * template is not one this can do (then parse the array's text).
 */
export function sharedManagedFields(packed: string, at: number, template: Template): unknown[] | undefined {
  let shared = parsed.get(template);
  if (shared === undefined) {
    if (parsedChars + template.bytes > maxParsedChars) return undefined;
    parsedChars += template.bytes;
    shared = parseTemplate(template);
    parsed.set(template, shared);
  }
  if (shared === false) return undefined;
  const { entries, timed } = shared;
  const out = new Array<unknown>(entries.length);
  let slot = 0;
  for (let j = 0; j < entries.length; j++) {
    out[j] = timed[j] ? { ...entries[j], time: slotTime(packed, at, template, slot++) } : { ...entries[j] };
  }
  return out;
}
