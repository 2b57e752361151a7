export { anonymousUser } from '@kevents/api';
export type { UserInfo, RequestAttributes, Authorizer, Decision } from '@kevents/api';
export { alwaysAllow, alwaysDeny, chain, authorizerForMode } from './authorizer.js';
