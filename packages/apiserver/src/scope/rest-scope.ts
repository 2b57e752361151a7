import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KubeObject } from '@kevents/api';
import type { ViewFieldManager } from '../registry/field-managers.js';
import type { Store } from '../registry/store.js';
import type { ResourceStrategy } from '../registry/strategy.js';
import type { VersionedView } from '../registry/view.js';
import type { RestRequest } from '../request/rest-request.js';
import type { WatchHub } from '../watch/watch-hub.js';
import type { EncodedEventCache } from '../encoding/encoded-cache.js';
import type { ObjectTexts } from '../encoding/object-texts.js';
import type { ValueLimits } from '../registry/value-limits.js';

/** What a REST handler works with: one resource through one view, its store, and the live watches. */
export interface RestScope<T extends KubeObject = KubeObject> {
  readonly store: Store<T>;
  /** The JSON texts of the store's objects through the view (gets, pages, writes, watch lines). */
  readonly texts: ObjectTexts<T>;
  readonly view: VersionedView<T>;
  readonly strategy: ResourceStrategy<T>;
  /** Keeps `metadata.managedFields` on writes through the view and serves server-side apply. */
  readonly fieldManager: ViewFieldManager<T>;
  readonly watches: WatchHub;
  /** Default watch length when `timeoutSeconds` is absent: a random value in [min, 2*min). */
  readonly minRequestTimeoutSeconds: number;
  /** The bounds on the values a write's body, patch or result may hold (413 past them). */
  readonly valueLimits: ValueLimits;
  /** Watch lines encoded once per change and view, shared by all watchers. */
  readonly encoded: EncodedEventCache;
  /** Called when a client ends a watch before the server does (the metrics count it then). */
  readonly onWatchAbandoned?: (req: FastifyRequest) => void;
}

/** A generic REST handler for one verb. */
export type Handler = <T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
) => Promise<unknown>;
