/**
 * The view's texts of the objects this process created last, by resourceVersion and uid, for
 * stores that cannot read revisions (Redis, SQL): so that a create's answer and the watch lines
 * of its change share one encoding, as {@link RecentTexts} lets them with stores that can.
 *
 * A resourceVersion alone does not name one object there: after Redis lost data its counter goes
 * back, and a resourceVersion is given again to another write. A create's uid is new (the server
 * makes it), and an object whose create was lost is gone with it, so a resourceVersion and the
 * uid of the object created at it name that one state only. Only creates are kept: an update
 * keeps its object's uid, so a counter that went back could give an update's resourceVersion
 * again to another update of the same object.
 */
export class CreatedTexts {
  readonly #rvs: number[];
  readonly #uids: (string | undefined)[];
  readonly #texts: (string | undefined)[];

  /** @param size - how many slots (a resourceVersion maps to one) */
  constructor(size = 256) {
    this.#rvs = new Array<number>(size).fill(0);
    this.#uids = new Array<string | undefined>(size).fill(undefined);
    this.#texts = new Array<string | undefined>(size).fill(undefined);
  }

  /** Keeps the text of the object created at `rv` with `uid`. */
  set(rv: number, uid: string, text: string): void {
    const slot = rv % this.#rvs.length;
    this.#rvs[slot] = rv;
    this.#uids[slot] = uid;
    this.#texts[slot] = text;
  }

  /** The text kept for the object created at `rv` with `uid`, if its slot still holds it. */
  peek(rv: number, uid: string): string | undefined {
    const slot = rv % this.#rvs.length;
    return this.#rvs[slot] === rv && this.#uids[slot] === uid ? this.#texts[slot] : undefined;
  }
}
