/**
 * The bounds every PATCH is held to. The first two are kube-apiserver's; the last two are
 * kevents' own guard (kube-apiserver relies on Go's speed and etcd's 1.5 MiB request limit
 * instead).
 */
import { maxRequestBodyBytes } from '@kevents/api';
import { ApiError } from '../../errors/api-error.js';
import { maxObjectValues } from '../../registry/object-values.js';

/**
 * Operations a JSON patch may hold: `maxJSONPatchOperations` of kube-apiserver's
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go. More is a 413.
 */
export const maxJSONPatchOperations = 10_000;

/**
 * The most bytes the `copy` operations of one JSON patch may add, counted as evanphx/json-patch
 * v4 counts them (the compact JSON of each copied value, as Go's encoding/json writes it).
 * kube-apiserver sets `jsonpatch.AccumulatedCopySizeLimit` to its `JSONPatchMaxCopyBytes`,
 * 3 MiB by default, the same as its `MaxRequestBodyBytes`
 * (staging/src/k8s.io/apiserver/pkg/server/config.go).
 */
export const jsonPatchMaxCopyBytes = maxRequestBodyBytes;

/**
 * The largest patched object, in bytes of its compact JSON (UTF-8): twice the body limit. A
 * patch cannot reach it without help from the object it patches: an object created with a
 * whole body (3 MiB) still takes a patch as large again. Past it the answer is a 413.
 */
export const maxPatchedObjectBytes = 2 * maxRequestBodyBytes;

/**
 * Steps one PATCH may take while it applies (see `WorkBudget`): about a value visited, copied,
 * sized or compared, a member listed, a pointer token followed, a list item merged, or 32 array
 * elements shifted. Some tens of nanoseconds each (14-25 million a second on the 2-core bench VM):
 * a patch built to be slow holds the event loop 40-70 ms at most, within the 100 ms that a health
 * check may wait; a patch a client writes takes a few thousand steps. Copying a whole 3 MiB
 * allowance of one-byte values (about 3 million steps) is refused by this bound before the copy
 * limit.
 */
export const patchWorkLimit = 1_000_000;

/**
 * The most values (object members and array elements, at every depth) a merge or strategic merge
 * patch may spell: three times the values an object may hold (an object's worth of values, a
 * directive list naming each of them, and as many again). kevents' own bound, counted on the text
 * before it is parsed: parsing, then walking, a 3 MiB patch of a million empty arrays holds the
 * event loop about a second, of 330,000 short strings a quarter of a second. More is a 413.
 */
export const maxPatchValues = 3 * maxObjectValues;

/** The 413 of a patch that spells more than {@link maxPatchValues} values. */
export const tooManyPatchValues = (limit = maxPatchValues): ApiError =>
  new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: limit is ${limit} values (object members and array elements) in a merge or strategic merge patch`,
  );
