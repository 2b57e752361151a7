import { parseJson, type Event } from '@kevents/api';

/**
 * The annotation on a series Event that records the members folded into it by its last fold
 * write: a JSON object `{ "<member uid>": <occurrences folded> }`. It is written in the same PUT
 * that adds those occurrences to `series.count`, so the count and the record change together;
 * the members are deleted only after that write. A member whose uid is recorded has been counted
 * already and is only deleted (or, if it grew since, only its growth is counted).
 */
export const foldedAnnotation = 'events.kevents.io/folded';

/** Reads the fold record of an event (empty when absent or unreadable). */
export function readFoldRecord(e: Event): Map<string, number> {
  const raw = e.metadata.annotations?.[foldedAnnotation];
  if (!raw) return new Map();
  try {
    const o = parseJson(raw) as Record<string, unknown>;
    return new Map(Object.entries(o).filter((kv): kv is [string, number] => typeof kv[1] === 'number'));
  } catch {
    return new Map();
  }
}

/** Serializes a fold record. */
export function writeFoldRecord(record: ReadonlyMap<string, number>): string {
  return JSON.stringify(Object.fromEntries(record));
}
