import { describe, expect, it } from '@jest/globals';
import { ServerMetrics } from './metrics.js';

describe('ServerMetrics', () => {
  it('keeps the authorization metrics where ServerMetrics has always written them', async () => {
    const families = (await new ServerMetrics().registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('# TYPE apiserver_'))
      .map((l) => l.split(' ')[2]);
    expect(families).toEqual([
      'apiserver_longrunning_requests',
      'apiserver_terminated_watchers_total',
      'apiserver_authentication_config_controller_automatic_reloads_total',
      'apiserver_authorization_config_controller_automatic_reloads_total',
      'apiserver_authorization_attempts_total',
      'apiserver_authorization_duration_seconds',
    ]);
  });
});
