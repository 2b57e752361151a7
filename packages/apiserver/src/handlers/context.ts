/**
 * The types every handler works with, under the name the handlers import them by. They live
 * below the handlers (scope/, request/) so that watch/ and table/ can use them too.
 */
export type { Handler, RestScope } from '../scope/rest-scope.js';
export type { RestRequest } from '../request/rest-request.js';
