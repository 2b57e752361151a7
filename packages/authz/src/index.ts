export { anonymousUser } from './attributes.js';
export type { UserInfo, RequestAttributes } from './attributes.js';
export { alwaysAllow, alwaysDeny, chain, authorizerForMode, forbiddenMessage } from './authorizer.js';
export type { Authorizer, Decision } from './authorizer.js';
