import { unprocessable } from '../../errors/api-error.js';
import type { ApiError } from '../../errors/api-error.js';
import { patchWorkLimit } from './limits.js';

/** Array elements one step pays for when a splice shifts them (a memory move, not a visit). */
export const elementsPerStep = 32;

/**
 * The steps one insertion into a Set or Map pays for: growing a hash table by a value the patch
 * parsed (hashing a fresh string, giving an object its identity hash, rehashing as the table
 * grows) costs some hundreds of nanoseconds, several plain steps. A lookup is one step.
 */
export const hashSteps = 8;

/**
 * The per-request guard of a PATCH: a counter of work steps that the appliers charge as they go.
 * A step is about one value visited, copied, sized or compared, one member listed, one pointer
 * token followed, one list item merged (some tens of nanoseconds), or {@link elementsPerStep}
 * array elements shifted by a splice. Past the limit the patch fails with a 422, so no patch
 * holds the event loop for longer than the limit's worth of steps, whatever the object and the
 * patch; and as nothing is allocated that was not charged, the heap it can grow is bounded too.
 */
export class WorkBudget {
  readonly limit: number;
  private left: number;

  constructor(limit = patchWorkLimit) {
    this.limit = limit;
    this.left = limit;
  }

  /** Spends `steps`; throws {@link tooMuchWork} once the budget is exhausted. */
  charge(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw tooMuchWork(this.limit);
  }

  /** Spends the steps of shifting `elements` array elements. */
  chargeShift(elements: number): void {
    this.charge(Math.ceil(elements / elementsPerStep));
  }

  /** Spends the steps of inserting `entries` values into a Set or Map ({@link hashSteps} each). */
  chargeHashed(entries: number): void {
    this.charge(entries * hashSteps);
  }

  /** Steps spent so far. */
  get spent(): number {
    return this.limit - this.left;
  }
}

/** The 422 of a patch that needs more than `limit` steps (worded like the other patch failures). */
export const tooMuchWork = (limit: number): ApiError =>
  unprocessable(
    `the server rejected our request due to an error in our request: applying the patch takes more than ${limit} steps, the most this server spends on one patch`,
  );
