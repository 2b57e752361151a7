import type { FastifyReply } from 'fastify';

/**
 * What a handler returns once it has replied: the reply sent, or what settles when it is sent
 * (an async handler or error handler returns it, and fastify waits for it).
 */
export type Replied = FastifyReply | Promise<void>;

/** The replies waiting for the end of this turn, their texts, and what settles when they are sent. */
let pending: FastifyReply[] = [];
let payloads: string[] = [];
let sent: { promise: Promise<void>; resolve: () => void } | undefined;

function sendPending(): void {
  const replies = pending;
  const texts = payloads;
  const done = sent!.resolve;
  pending = [];
  payloads = [];
  sent = undefined;
  let unsent: FastifyReply[] | undefined;
  for (let i = 0; i < replies.length; i++) {
    const reply = replies[i]!;
    try {
      reply.send(texts[i]);
    } catch (err) {
      reply.raw.destroy(err as Error);
    }
    // An async onSend hook, or an error whose answer is queued for the next turn, sends later.
    if (!reply.sent && !reply.raw.destroyed) (unsent ??= []).push(reply);
  }
  if (unsent === undefined) done();
  else void Promise.all(unsent.map((r) => new Promise<void>((end) => r.then(end, () => end())))).then(done);
}

/**
 * Sends a reply's text at the end of the event loop's turn (its check phase), together with
 * every other reply of that turn, instead of at once. HTTP/1 requests only; HTTP/2 replies are
 * sent at once (their session frames and flushes its own writes).
 *
 * A server under load reads many requests in one turn of the loop. Answering each as soon as its
 * handler finishes interleaves one socket write with the next request's work, and every write
 * wakes a client that went back to sleep meanwhile: on loopback and on a virtual machine each
 * wake-up is a cross-CPU interrupt that costs the writer more than the write. Answers written
 * back to back wake a waiting client once. The delay is the rest of the turn, microseconds when
 * the server is idle.
 *
 * Returns what settles once the reply was sent, one promise for all the replies of a turn
 * (cheaper than the reply itself, which fastify would wait on with listeners on the response).
 */
export function sendAtTurnEnd(reply: FastifyReply, text: string): Replied {
  if (reply.request.raw.httpVersionMajor !== 1) return reply.send(text);
  if (sent === undefined) {
    let resolve!: () => void;
    sent = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    setImmediate(sendPending);
  }
  pending.push(reply);
  payloads.push(text);
  return sent.promise;
}
