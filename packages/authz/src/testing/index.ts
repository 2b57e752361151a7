export { WebhookServer } from './webhook-server.js';
export type { ReceivedReview, WebhookAnswer, WebhookServerOptions } from './webhook-server.js';
export { startRbacStandIn, subjectAccessReviewPath } from './rbac-stand-in.js';
export type { RbacGrant } from './rbac-stand-in.js';
export { generateCA, generateLeaf } from './certificates.js';
export type { KeyPair } from './certificates.js';
