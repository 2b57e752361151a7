import { ApiError } from '../errors/api-error.js';
import { maxBodyValues, tooManyValues } from '../registry/object-values.js';
import { defaultValueLimits } from '../registry/value-limits.js';
import type { ValueLimits } from '../registry/value-limits.js';
import { countMemberNames } from './json-duplicates.js';
import { countTextValues } from './json-scan.js';
import { maxNestingDepth } from './json-depth.js';
import { scanJsonShape } from './json-shape.js';
import { maxJSONPatchOperations } from './patch/limits.js';
import { tooManyOperations } from './patch/json-patch.js';

/**
 * The most member names a JSON patch body may spell by default: four for each of its most operations
 * (`op`, `path`, `from`, `value`) and a body's worth of values (`maxBodyValues`); see
 * {@link jsonPatchMemberNames}.
 */
export const maxJSONPatchMemberNames = 4 * maxJSONPatchOperations + maxBodyValues;

/** The most member names a JSON patch body may spell under `limits` ({@link maxJSONPatchMemberNames} by default). */
export const jsonPatchMemberNames = (limits: ValueLimits): number => 4 * maxJSONPatchOperations + limits.bodyValues;

/**
 * Refuses a JSON object body (a create, an update, a merge patch, a DeleteOptions) that spells
 * more member names than a body may hold values (`limits.bodyValues`), before it is parsed: parsing and walking
 * 3 MiB of keys costs the event loop 0.3-1 s (keys spelled with escapes the most), a scan of its
 * text ~20 ms. Counted as written: repeated keys count each time. Returns the count.
 */
export function refuseWideJson(text: string, limits: ValueLimits = defaultValueLimits): number {
  const names = countMemberNames(text, limits.bodyValues);
  if (names > limits.bodyValues) throw tooManyValues(limits.objectValues);
  return names;
}

/**
 * Refuses a JSON body that spells more values (object members and array elements) than a body may
 * hold (`limits.bodyValues`), before it is parsed: the 413 `decodeKind` answers once it is parsed,
 * without parsing 3 MiB of small numbers first (1.5 million array elements: 30-60 ms of
 * `JSON.parse` and as much again collecting its garbage). A text shorter than two characters a
 * value cannot spell too many and is not scanned.
 */
export function refuseManyJsonValues(text: string, limits: ValueLimits = defaultValueLimits): void {
  const most = limits.bodyValues;
  if (text.length > 2 * most && countTextValues(text, most) > most) throw tooManyValues(limits.objectValues);
}

/**
 * {@link refuseWideJson} for a JSON patch body, held to {@link jsonPatchMemberNames}. One
 * past it that holds more than `maxJSONPatchOperations` operations gets kube-apiserver's 413 for
 * that (its array counted with `JSON.parse`, which reads any text in linear time).
 */
export function refuseWideJsonPatch(text: string, limits: ValueLimits = defaultValueLimits): void {
  const most = jsonPatchMemberNames(limits);
  if (countMemberNames(text, most) <= most) return;
  let ops: unknown;
  try {
    ops = JSON.parse(text);
  } catch {
    ops = undefined;
  }
  if (Array.isArray(ops) && ops.length > maxJSONPatchOperations) throw tooManyOperations(ops.length);
  throw new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: limit is ${most} member names in a JSON patch`,
  );
}

/**
 * Refuses, before it is parsed, a body read as YAML (an apply configuration, a YAML create, update,
 * DeleteOptions or review) that is a JSON object spelling more values than a body may hold
 * (`limits.bodyValues`), when reading it would give exactly that 413: JSON that the YAML reader
 * would parse as JSON (not too deep, no number past a double, no more member names than the bound,
 * no name repeated in an object) into an object of those values, which every caller counts before
 * anything else. Any other text is left to the reader. An apply of 3 MiB of small numbers was
 * parsed (tens of milliseconds to a second held) before its 413.
 */
export function refuseManyYamlJsonValues(text: string, limits: ValueLimits = defaultValueLimits): void {
  const most = limits.bodyValues;
  if (text.length <= 2 * most || countTextValues(text, most) <= most) return;
  if (countMemberNames(text, most) > most) return;
  const shape = scanJsonShape(text, true);
  if (shape === undefined || shape.root !== 'object' || shape.repeatsName || shape.values <= most) return;
  if (shape.depth > maxNestingDepth || shape.overflows) return;
  throw tooManyValues(limits.objectValues);
}
