import { parentPort } from 'node:worker_threads';
import { readYaml, YamlInputError } from './yaml-input.js';
import type { YamlThreadReply, YamlThreadRequest } from './yaml-thread.js';

/** The YAML thread: reads each body it is sent with {@link readYaml} and answers in order. */
parentPort?.on('message', ({ id, text }: YamlThreadRequest) => {
  let reply: YamlThreadReply;
  try {
    const read = readYaml(text);
    reply = { id, value: read.value, duplicateKeys: [...read.duplicateKeys] };
  } catch (err) {
    reply =
      err instanceof YamlInputError
        ? { id, refused: { kind: err.kind, message: err.message, char: err.char } }
        : { id, failed: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
