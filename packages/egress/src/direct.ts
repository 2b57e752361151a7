import type { Duplex } from 'node:stream';
import { dialDeadline, joinHostPort } from './dialer.js';
import type { DialAddress, DialOptions, EgressDialer } from './dialer.js';
import { goDialError } from './errors.js';
import { openSocket } from './socket.js';

/**
 * `Direct`: a plain TCP connection, as Go's default transport dialer (30 s connect timeout,
 * 30 s keep-alive). Not metered, as in kube-apiserver.
 */
export class DirectDialer implements EgressDialer {
  readonly selection: string;
  readonly protocol = 'Direct' as const;
  readonly proxy = undefined;

  constructor(selection: string) {
    this.selection = selection;
  }

  async dial(address: DialAddress, options?: DialOptions): Promise<Duplex> {
    const deadline = dialDeadline(options);
    try {
      return await openSocket({ host: address.host, port: address.port }, deadline.signal);
    } catch (e) {
      const reason = deadline.signal.aborted && !deadline.timedOut() ? 'operation was canceled' : undefined;
      throw new Error(
        reason
          ? `dial tcp ${joinHostPort(address.host, address.port)}: ${reason}`
          : goDialError('tcp', joinHostPort(address.host, address.port), e),
        { cause: e },
      );
    } finally {
      deadline.done();
    }
  }
}
