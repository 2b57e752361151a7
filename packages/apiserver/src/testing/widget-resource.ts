import { leaseListSchema, leaseSchema } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { schemaView } from '../registry/schema-view.js';
import type { SchemaViewOptions } from '../registry/schema-view.js';
import type { VersionedView } from '../registry/view.js';
import type { ResourceStrategy } from '../registry/strategy.js';
import { defaultTableConvertor } from '../table/table.js';

/** The unit tests' resource (not exported from the package): a Widget stored in the Lease schema's shape. */
export interface Widget extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number };
}

/** The Widget view of `example.com/<version>` (v1 unless `options` names another), over the Lease schemas. */
export const widgetView = <T extends KubeObject = Widget>(options: Partial<SchemaViewOptions> = {}): VersionedView<T> =>
  schemaView<T>({
    group: 'example.com',
    version: 'v1',
    kind: 'Widget',
    resource: 'widgets',
    singularName: 'widget',
    schema: leaseSchema,
    listSchema: leaseListSchema,
    ...options,
  });

/** A namespaced Widget strategy with no rules of its own (`overrides` adds them). */
export const widgetStrategy = <T extends KubeObject = Widget>(
  overrides: Partial<ResourceStrategy<T>> = {},
): ResourceStrategy<T> => ({
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  qualifiedKind: { group: 'example.com', kind: 'Widget' },
  newObject: () => ({ metadata: {} }) as T,
  validate: () => [],
  validateUpdate: () => [],
  fieldValue: () => '',
  table: defaultTableConvertor as ResourceStrategy<T>['table'],
  ...overrides,
});
