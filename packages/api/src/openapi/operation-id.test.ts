import { describe, expect, it } from '@jest/globals';
import { groupOperationName, groupVersionOperationName, groupVersionTag } from './operation-id.js';

describe('operation id names', () => {
  it('names groups like Kubernetes', () => {
    expect(groupOperationName('')).toBe('Core');
    expect(groupOperationName('events.k8s.io')).toBe('Events');
    expect(groupOperationName('rbac.authorization.k8s.io')).toBe('RbacAuthorization');
    expect(groupOperationName('events.example.com', 'example.com')).toBe('Events');
    expect(groupOperationName('events.example.com')).toBe('EventsExampleCom');
  });

  it('names group versions and tags', () => {
    expect(groupVersionOperationName('events.k8s.io', 'v1')).toBe('EventsV1');
    expect(groupVersionOperationName('', 'v1')).toBe('CoreV1');
    expect(groupVersionTag('events.k8s.io', 'v1')).toBe('events_v1');
    expect(groupVersionTag('', 'v1')).toBe('core_v1');
  });
});
