/**
 * Interned `managedFields` texts of the memory store's packed bodies. Objects written by the same
 * client carry the same managedFields but for the entries' times (every Event a reporter writes
 * has one `Update` entry of ~280 bytes with the same manager, version and fieldsV1), so a
 * managedFields array whose JSON text, times cut out, was seen before is packed as U+0000, the
 * index of that template (two characters) and four characters per time (seconds since the
 * epoch): 7 characters instead of ~280. Templates are kept for the life of the process (a stored
 * body may name any of them) and bounded in number and size; past the bounds arrays are packed as
 * before. The same table holds the templates of repeating member values and times
 * ({@link internValue}). Nothing packed leaves the process.
 */

import { hasSurrogateEscape, needsGoEscapes } from '@kevents/api';

/** The character that opens an interned managedFields array in a packed body. */
export const internMark = 0;

/** A managedFields array's JSON text cut at its entries' times (or a repeating value's text, cut at its time if it is one). */
export interface Template {
  /** The text around the times (one more piece than times), as bytes. */
  readonly pieces: readonly Uint8Array[];
  /** The same as strings (for the string unpacker). */
  readonly texts: readonly string[];
  /** Bytes of the pieces together. */
  readonly bytes: number;
  /**
   * Whether the times are `metav1.MicroTime`s (seven characters each: seconds, then microseconds
   * in three) instead of seconds (four characters).
   */
  readonly micro: boolean;
  /**
   * What the template writes: an array (a managedFields array), a plain string (`empty` when it is
   * `""`), a time alone, or other JSON.
   */
  readonly writes: 'array' | 'string' | 'empty' | 'time' | 'other';
  /** Whether its texts hold a character Go's JSON encoder escapes (`<`, `>`, `&`, U+2028, U+2029). */
  readonly html: boolean;
  /** Whether its texts hold a UTF-16 surrogate's escape (a lone surrogate, which JSON text decoders read as U+FFFD). */
  readonly surrogateEscape: boolean;
}

/** What a template of these texts writes ({@link Template.writes}). */
function writesOf(texts: readonly string[]): Template['writes'] {
  const text = texts[0]!;
  if (text.charCodeAt(0) === 91) return 'array';
  if (texts.length === 2 && text === '' && texts[1] === '') return 'time';
  if (texts.length === 1 && text.length >= 2 && text.charCodeAt(0) === 34 && text.indexOf('"', 1) === text.length - 1)
    return text.length === 2 ? 'empty' : 'string';
  return 'other';
}

/** At most this many templates (the index takes two characters). */
const maxTemplates = 1 << 16;
/** Arrays longer than this are not interned. */
const maxTemplateChars = 4096;
/** Templates stop being added past this many characters in all. */
const maxInternedChars = 8 << 20;

const templates: Template[] = [];
const indexOf = new Map<string, number>();
let internedChars = 0;

/** A `"time":"<RFC 3339 seconds, UTC>"` member, as metav1.Time marshals: the value is cut out. */
const timeMember = /"time":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/g;
const timeMemberName = '"time":'.length;

/**
 * Times formatted lately, by their seconds modulo the table's size: the items of one page mostly
 * share a few seconds (their creation, their managedFields entry, their event time).
 */
const formattedSeconds = new Float64Array(64).fill(-1);
const formattedTexts: string[] = new Array<string>(64).fill('');

/** RFC 3339 in seconds, UTC (`2026-11-28T19:50:00Z`). */
function formatSeconds(s: number): string {
  const slot = s & 63;
  if (formattedSeconds[slot] === s) return formattedTexts[slot]!;
  const text = new Date(s * 1000).toISOString().replace('.000Z', 'Z');
  formattedSeconds[slot] = s;
  formattedTexts[slot] = text;
  return text;
}

/** The most bytes one quoted time takes as a packed body unpacks it (a MicroTime; seconds take 22). */
export const unpackedTimeBytes = 29;

/** One-byte text (every character below U+0100). */
// eslint-disable-next-line no-control-regex -- looks for characters outside Latin-1
const wide = /[^\u0000-\u00ff]/;

/**
 * The packed form of a managedFields array's JSON text (exactly as JSON.stringify writes it):
 * U+0000, the template's index in two characters, and each entry time as four characters
 * (seconds, big-endian); undefined when it is not interned (not an array, too long, a time
 * that does not print back the same, characters past U+00FF, or the table full).
 */
export function internManagedFields(json: string): string | undefined {
  if (json.length > maxTemplateChars || json.charCodeAt(0) !== 91 || wide.test(json)) return undefined;
  const texts: string[] = [];
  const seconds: number[] = [];
  let last = 0;
  for (const m of json.matchAll(timeMember)) {
    const s = Date.parse(m[1]!) / 1000;
    if (!Number.isInteger(s) || s < 0 || s > 0xffffffff || formatSeconds(s) !== m[1]) return undefined;
    const at = m.index + timeMemberName;
    texts.push(json.slice(last, at));
    seconds.push(s);
    last = at + m[1]!.length + 2;
  }
  texts.push(json.slice(last));
  const key = texts.join('\u0000');
  const index = indexOf.get(key);
  let out = index === undefined ? addTemplate(texts) : String.fromCharCode(internMark, index >> 8, index & 255);
  if (out === undefined) return undefined;
  for (const s of seconds) out += String.fromCharCode(s >>> 24, (s >>> 16) & 255, (s >>> 8) & 255, s & 255);
  return out;
}

/**
 * Interned member values. The values of a few members repeat across a store's objects: the
 * reporting component and instance (a node's name), the source, type, reason and action, kinds,
 * API versions and field paths, namespaces, and times. A plain string value (nothing in it that JSON
 * escapes, every character below U+0100) seen before is packed as U+0000 and its template's
 * index: 3 characters (`"node-17.cluster.example.internal"` takes 34). A time in seconds is packed
 * with the one template of a quoted time: 7 characters instead of 22; a MicroTime with the one
 * of a quoted MicroTime: 10 instead of 29. Values take at most
 * {@link maxValueTemplates} templates and {@link maxValueChars} characters, so that no client can
 * crowd out the managedFields templates; past the bounds new values are packed as they are.
 */
export const internedValueKeys: ReadonlySet<string> = new Set([
  'namespace',
  'kind',
  'apiVersion',
  'type',
  'reason',
  'action',
  'reportingComponent',
  'reportingInstance',
  'component',
  'host',
  'fieldPath',
  'creationTimestamp',
  'firstTimestamp',
  'lastTimestamp',
  'eventTime',
  'lastObservedTime',
]);
const maxValueTemplates = 1 << 14;
const maxValueChars = 1 << 20;
/** Longer values are not interned. */
const maxValueLength = 256;
const valueIndex = new Map<string, string>();
let valueChars = 0;
let timeTemplate = '';
let microTimeTemplate = '';
const secondsTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/** `metav1.MicroTime` as it marshals: six fractional digits, UTC. */
const microTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** A new template of the given texts; its packed head (U+0000 and the index), or undefined when full. */
function addTemplate(texts: string[], micro = false): string | undefined {
  const key = micro ? `\u0001${texts.join('\u0000')}` : texts.join('\u0000');
  if (templates.length >= maxTemplates || internedChars + key.length > maxInternedChars) return undefined;
  const pieces = texts.map((t) => Uint8Array.from(t, (ch) => ch.charCodeAt(0)));
  const html = texts.some(needsGoEscapes);
  const surrogateEscape = texts.some(hasSurrogateEscape);
  const index =
    templates.push({
      pieces,
      texts,
      bytes: key.length - (texts.length - 1),
      micro,
      writes: writesOf(texts),
      html,
      surrogateEscape,
    }) - 1;
  indexOf.set(key, index);
  internedChars += key.length;
  return String.fromCharCode(internMark, index >> 8, index & 255);
}

/**
 * The packed form of a string member value (`s` as it is, unquoted), or undefined when it is
 * not interned (it needs escaping, is too long, or the bounds are reached).
 */
export function internValue(s: string): string | undefined {
  const known = valueIndex.get(s);
  if (known !== undefined) return known;
  if (s.length === 20 && secondsTime.test(s)) {
    const chars = timeChars(s);
    if (chars === undefined) return undefined;
    if (timeTemplate === '') timeTemplate = addTemplate(['', '']) ?? '';
    return timeTemplate === '' ? undefined : timeTemplate + chars;
  }
  if (s.length === 27 && microTime.test(s)) {
    const chars = timeChars(`${s.slice(0, 19)}Z`);
    if (chars === undefined) return undefined;
    if (microTimeTemplate === '') microTimeTemplate = addTemplate(['', ''], true) ?? '';
    const us = Number(s.slice(20, 26));
    return microTimeTemplate === ''
      ? undefined
      : microTimeTemplate + chars + String.fromCharCode(us >> 16, (us >> 8) & 255, us & 255);
  }
  if (s.length > maxValueLength || valueIndex.size >= maxValueTemplates || valueChars + s.length > maxValueChars)
    return undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92 || c > 0xff) return undefined;
  }
  const head = addTemplate([`"${s}"`]);
  if (head === undefined) return undefined;
  valueIndex.set(s, head);
  valueChars += s.length;
  return head;
}

/**
 * A template of one-entry arrays whose entry has a frozen `fieldsV1`: the entry's member names
 * in order, and the value of each (undefined at `fieldsV1` and `time`).
 */
interface FrozenEntryTemplate {
  readonly names: readonly string[];
  readonly values: readonly (string | undefined)[];
  /** Whether the entry has a `time` (then the packed form carries it). */
  readonly timed: boolean;
  /** U+0000 and the template's index: the packed form without the time. */
  readonly head: string;
}

/**
 * Templates of one-entry arrays by the entry's `fieldsV1` object (deeply frozen, so its text
 * cannot change): {@link internFrozenEntry} finds them by comparing the entry's other members,
 * without writing the array's JSON. Writers that share one frozen `fieldsV1` between objects
 * (kevents' apiserver does for the creates of one shape) pack in a few tens of nanoseconds.
 * Only objects found deeply frozen are keys.
 */
const byFieldsV1 = new WeakMap<object, FrozenEntryTemplate[]>();
/** Templates kept per `fieldsV1` (managers writing the same fields); past it the first is replaced. */
const maxPerFieldsV1 = 16;

function deeplyFrozen(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  for (const x of Object.values(v)) if (typeof x === 'object' && x !== null && !deeplyFrozen(x)) return false;
  return true;
}

/**
 * Times packed lately and their four characters. The writes of one second share their
 * timestamps, but an object carries several (a create's own time and its managedFields' beside a
 * client's `eventTime`), so one remembered time missed on every other call.
 */
const recentTimes = new Map<string, string>();
/** Past this many times {@link recentTimes} starts over. */
const maxRecentTimes = 64;

/** The four characters of an entry time, or undefined when it does not print back the same. */
function timeChars(time: string): string | undefined {
  const known = recentTimes.get(time);
  if (known !== undefined) return known;
  const s = Date.parse(time) / 1000;
  if (!Number.isInteger(s) || s < 0 || s > 0xffffffff || formatSeconds(s) !== time) return undefined;
  const chars = String.fromCharCode(s >>> 24, (s >>> 16) & 255, (s >>> 8) & 255, s & 255);
  if (recentTimes.size >= maxRecentTimes) recentTimes.clear();
  recentTimes.set(time, chars);
  return chars;
}

/** The template among `known` that the entry's members (`names` in order, from `m`) match. */
function matching(
  known: readonly FrozenEntryTemplate[],
  names: readonly string[],
  m: Record<string, unknown>,
): FrozenEntryTemplate | undefined {
  for (let t = 0; t < known.length; t++) {
    const template = known[t]!;
    if (template.names.length !== names.length) continue;
    let same = true;
    for (let i = 0; i < names.length && same; i++) {
      const k = names[i]!;
      const want = template.values[i];
      same = k === template.names[i] && (want === undefined || m[k] === want);
    }
    if (same) return template;
  }
  return undefined;
}

/**
 * The members of a one-entry array's entry with a frozen `fieldsV1`, checked as the packed form
 * needs them (every member but `fieldsV1` a string); undefined when the array is not one.
 */
function frozenEntry(
  a: readonly unknown[],
): { m: Record<string, unknown>; fieldsV1: object; names: string[]; time?: string } | undefined {
  if (a.length !== 1) return undefined;
  const e = a[0];
  if (typeof e !== 'object' || e === null || Array.isArray(e) || Object.getPrototypeOf(e) !== Object.prototype)
    return undefined;
  const m = e as Record<string, unknown>;
  const fieldsV1 = m['fieldsV1'];
  if (typeof fieldsV1 !== 'object' || fieldsV1 === null || !Object.isFrozen(fieldsV1)) return undefined;
  const names = Object.keys(m);
  let time: string | undefined;
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    if (k === 'fieldsV1') continue;
    const v = m[k];
    if (typeof v !== 'string') return undefined;
    if (k === 'time') time = v;
  }
  return time === undefined ? { m, fieldsV1, names } : { m, fieldsV1, names, time };
}

/**
 * {@link internManagedFields} for an array of one entry whose `fieldsV1` is deeply frozen: the
 * same packed form, found by the entry's members after the first time; undefined when it does
 * not apply (the caller then writes the JSON and interns that).
 */
export function internFrozenEntry(a: readonly unknown[]): string | undefined {
  const entry = frozenEntry(a);
  if (entry === undefined) return undefined;
  const { m, fieldsV1, names, time } = entry;
  const known = byFieldsV1.get(fieldsV1);
  const template = known === undefined ? undefined : matching(known, names, m);
  if (template === undefined) return learn(a, entry);
  if (!template.timed) return template.head;
  const chars = timeChars(time!);
  return chars === undefined ? undefined : template.head + chars;
}

/** Interns a one-entry array from its JSON text and remembers its template by its frozen `fieldsV1`. */
function learn(
  a: readonly unknown[],
  entry: { m: Record<string, unknown>; fieldsV1: object; names: string[]; time?: string },
): string | undefined {
  if (!deeplyFrozen(entry.fieldsV1)) return undefined;
  let text: string;
  try {
    text = JSON.stringify(a);
  } catch {
    return undefined;
  }
  const packed = internManagedFields(text);
  if (packed === undefined) return undefined;
  const index = (packed.charCodeAt(1) << 8) | packed.charCodeAt(2);
  const timed = entry.time !== undefined;
  if (templates[index]!.pieces.length !== (timed ? 2 : 1)) return packed;
  const template: FrozenEntryTemplate = {
    names: entry.names,
    values: entry.names.map((k) => (k === 'fieldsV1' || k === 'time' ? undefined : (entry.m[k] as string))),
    timed,
    head: packed.slice(0, 3),
  };
  let known = byFieldsV1.get(entry.fieldsV1);
  if (known === undefined) byFieldsV1.set(entry.fieldsV1, (known = []));
  if (known.length >= maxPerFieldsV1) known.shift();
  known.push(template);
  return packed;
}

/** The template an interned array at `at` (its U+0000) names, and the packed characters it takes. */
export function internedAt(packed: string, at: number): { readonly template: Template; readonly length: number } {
  const template = templates[(packed.charCodeAt(at + 1) << 8) | packed.charCodeAt(at + 2)];
  if (template === undefined) throw new Error('packed body names an unknown managedFields template');
  return { template, length: 3 + (template.micro ? 7 : 4) * (template.pieces.length - 1) };
}

/** The seconds written at `at` of a packed body. */
const secondsAt = (packed: string, at: number): number =>
  packed.charCodeAt(at) * 0x1000000 +
  (packed.charCodeAt(at + 1) << 16) +
  (packed.charCodeAt(at + 2) << 8) +
  packed.charCodeAt(at + 3);

/** The text of the time packed at `at`: RFC 3339 seconds, or a MicroTime's six fractional digits. */
function timeText(packed: string, at: number, micro: boolean): string {
  const seconds = formatSeconds(secondsAt(packed, at));
  if (!micro) return seconds;
  const us = (packed.charCodeAt(at + 4) << 16) | (packed.charCodeAt(at + 5) << 8) | packed.charCodeAt(at + 6);
  return `${seconds.slice(0, 19)}.${String(us).padStart(6, '0')}Z`;
}

/** Writes the JSON text of the interned array at `at` into `buf` from `n`; returns the new end. */
export function writeInterned(packed: string, at: number, template: Template, buf: Buffer, n: number): number {
  const { pieces } = template;
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p]!;
    buf.set(piece, n);
    n += piece.length;
    if (p === pieces.length - 1) break;
    const time = timeText(packed, at + 3 + (template.micro ? 7 : 4) * p, template.micro);
    buf[n++] = 34;
    for (let c = 0; c < time.length; c++) buf[n++] = time.charCodeAt(c);
    buf[n++] = 34;
  }
  return n;
}

/** The text of the `slot`th time (from 0) of the interned array at `at`, unquoted. */
export function slotTime(packed: string, at: number, template: Template, slot: number): string {
  return timeText(packed, at + 3 + (template.micro ? 7 : 4) * slot, template.micro);
}

/** The JSON text of the interned array at `at`, as a string. */
export function internedText(packed: string, at: number, template: Template): string {
  const { texts } = template;
  let out = texts[0]!;
  for (let p = 1; p < texts.length; p++) {
    out += `"${slotTime(packed, at, template, p - 1)}"${texts[p]!}`;
  }
  return out;
}

/**
 * The end (exclusive) of the JSON array that starts at `at` of a JSON.stringify text (strings
 * and their escapes skipped); -1 when `at` holds no array.
 */
export function arrayEnd(json: string, at: number): number {
  if (json.charCodeAt(at) !== 91) return -1;
  let depth = 0;
  for (let i = at; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34) {
      for (i++; i < json.length; i++) {
        const d = json.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
