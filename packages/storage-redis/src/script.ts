import { createHash } from 'node:crypto';
import { Cluster } from 'ioredis';
import { coalesceWrites } from './coalesce.js';
import type { Client } from './connection.js';
import type { Deadline } from './deadline.js';
import { EncodedCommand } from './encoded-command.js';

/** What {@link Script.run}'s first attempt answers when the server does not know the script. */
const noScript = Symbol('NOSCRIPT');

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

  /**
   * Runs the script within the request's `deadline` (both the EVALSHA and, after NOSCRIPT, the
   * EVAL count against it); fails with a StorageError. The command waits for the end of the turn
   * with the others of the turn ({@link coalesceWrites}) unless `coalesce` is false (a command
   * sent at the end of the turn would wait for the next one).
   */
  async run(
    client: Client,
    keys: readonly string[],
    args: readonly (string | number)[],
    deadline: Deadline,
    coalesce = true,
  ): Promise<unknown> {
    const reply = await deadline.run(client, () => {
      if (coalesce) coalesceWrites(client);
      const command = new EncodedCommand('evalsha', [this.sha, keys.length, ...keys, ...args], {
        replyEncoding: 'utf8',
      });
      return (client.sendCommand(command) as Promise<unknown>).catch((err: unknown) =>
        (err as Error)?.message?.startsWith('NOSCRIPT') === true ? noScript : Promise.reject(err),
      );
    });
    if (reply !== noScript) return reply;
    return deadline.run(client, () => {
      coalesceWrites(client);
      return client.eval(this.source, keys.length, ...keys, ...args);
    });
  }
}
