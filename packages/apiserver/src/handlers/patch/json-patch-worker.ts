import { parentPort } from 'node:worker_threads';
import { workOutJSONPatch } from './json-patch-thread.js';
import type { JSONPatchThreadReply, JSONPatchThreadRequest } from './json-patch-thread.js';

/** The JSON patch thread: reads and applies each patch it is sent ({@link workOutJSONPatch}) and answers in order. */
parentPort?.on('message', (request: JSONPatchThreadRequest) => {
  try {
    parentPort!.postMessage(workOutJSONPatch(request));
  } catch {
    // A reply that cannot be cloned: the event loop works the patch out.
    parentPort!.postMessage({ id: request.id, inline: true } satisfies JSONPatchThreadReply);
  }
});
