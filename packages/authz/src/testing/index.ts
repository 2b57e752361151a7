export { WebhookServer } from './webhook-server.js';
export type { ReceivedReview, WebhookAnswer, WebhookServerOptions } from './webhook-server.js';
export { startRbacStandIn, subjectAccessReviewPath } from './rbac-stand-in.js';
export type { RbacGrant } from './rbac-stand-in.js';
export { generateCA, generateLeaf } from '@kevents/api/testing';
export type { KeyPair } from '@kevents/api/testing';
