import { createHash } from 'node:crypto';
import { Cluster } from 'ioredis';
import { coalesceWrites } from './coalesce.js';
import { toStorageError, type Client } from './connection.js';

/** A Lua script run by EVALSHA, loaded with EVAL when the server does not know it. */
export class Script {
  readonly sha: string;
  private readonly source: string;

  constructor(source: string) {
    this.source = source;
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Loads the script into the server (every master of a cluster), so that the first calls find
   * it instead of failing with NOSCRIPT and sending the source again. A failure is left to
   * {@link run}, which loads the script itself when the server does not know it.
   */
  async load(client: Client): Promise<void> {
    const nodes = client instanceof Cluster ? client.nodes('master') : [client];
    await Promise.all(nodes.map((n) => n.script('LOAD', this.source).catch(() => undefined)));
  }

  async run(client: Client, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    coalesceWrites(client);
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if ((err as Error)?.message?.startsWith('NOSCRIPT') !== true) throw toStorageError(err, client);
    }
    try {
      return await client.eval(this.source, keys.length, ...keys, ...args);
    } catch (err) {
      throw toStorageError(err, client);
    }
  }
}
