import { isAbsolute } from 'node:path';
import { formatDuration, type AuthorizationConfiguration, type WebhookConfiguration } from '@kevents/api';
import { FieldPath } from '../field/path.js';
import { duplicate, invalid, notSupported, required, tooMany, type FieldError } from '../field/error.js';
import { compileAt } from './cel.js';
import { isDNS1123Subdomain } from './names.js';
import { statFile } from './files.js';

/** Authorizer types kube-apiserver knows; Webhook is the only repeatable one. */
export const knownAuthorizerTypes: readonly string[] = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'];
export const repeatableAuthorizerTypes: readonly string[] = ['Webhook'];

/** The most match conditions one webhook may have. */
export const maxMatchConditions = 64;

/** Inputs that come from the server rather than the document. */
export interface AuthorizationValidationOptions {
  knownTypes?: readonly string[];
  repeatableTypes?: readonly string[];
}

/**
 * `ValidateAuthorizationConfiguration` (after v1beta1 defaulting), reporting webhook errors under
 * `authorizers[i].webhook.` (Kubernetes prints them without the `webhook` segment).
 */
export function validateAuthorizationConfiguration(
  c: AuthorizationConfiguration,
  options: AuthorizationValidationOptions = {},
): FieldError[] {
  const known = [...(options.knownTypes ?? knownAuthorizerTypes)].sort();
  const repeatable = new Set(options.repeatableTypes ?? repeatableAuthorizerTypes);
  const errs: FieldError[] = [];
  const authorizers = c.authorizers ?? [];
  if (authorizers.length === 0)
    errs.push(required(FieldPath.root('authorizers'), 'at least one authorization mode must be defined'));

  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  authorizers.forEach((a, i) => {
    const p = FieldPath.root('authorizers').index(i);
    const type = a.type ?? '';
    if (type === '') {
      errs.push(required(p.child('type')));
      return;
    }
    if (!known.includes(type)) {
      errs.push(notSupported(p.child('type'), type, known));
      return;
    }
    if (seenTypes.has(type) && !repeatable.has(type)) {
      errs.push(duplicate(p.child('type'), type));
      return;
    }
    seenTypes.add(type);

    const name = a.name ?? '';
    if (name === '') errs.push(required(p.child('name')));
    else if (seenNames.has(name)) errs.push(duplicate(p.child('name'), name));
    else {
      const reasons = isDNS1123Subdomain(name);
      if (reasons.length)
        errs.push(invalid(p.child('name'), name, `authorizer name is invalid: ${reasons.join(', ')}`));
    }
    seenNames.add(name);

    if (type === 'Webhook') {
      if (!a.webhook) errs.push(required(p.child('webhook'), 'required when type=Webhook'));
      else errs.push(...validateWebhookConfiguration(a.webhook, p.child('webhook')));
    } else if (a.webhook !== undefined && a.webhook !== null) {
      errs.push(invalid(p.child('webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return errs;
}

const maxTimeout = 30e9;

/** `ValidateWebhookConfiguration`, in Kubernetes' order. */
export function validateWebhookConfiguration(c: WebhookConfiguration, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const timeout = c.timeout ?? 0;
  if (timeout === 0) errs.push(required(p.child('timeout')));
  else if (timeout > maxTimeout || timeout < 0)
    errs.push(invalid(p.child('timeout'), formatDuration(timeout), 'must be > 0s and <= 30s'));

  for (const f of ['authorizedTTL', 'unauthorizedTTL'] as const) {
    const ttl = c[f] ?? 0;
    if (ttl === 0) errs.push(required(p.child(f)));
    else if (ttl < 0) errs.push(invalid(p.child(f), formatDuration(ttl), 'must be > 0s'));
  }

  const sarVersion = c.subjectAccessReviewVersion ?? '';
  if (sarVersion === '') errs.push(required(p.child('subjectAccessReviewVersion')));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1') {
    errs.push(notSupported(p.child('subjectAccessReviewVersion'), sarVersion, ['v1', 'v1beta1']));
  }

  const conditions = c.matchConditions ?? [];
  const mcVersion = c.matchConditionSubjectAccessReviewVersion ?? '';
  if (mcVersion === '') {
    if (conditions.length > 0)
      errs.push(
        required(p.child('matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'),
      );
  } else if (mcVersion !== 'v1') {
    errs.push(notSupported(p.child('matchConditionSubjectAccessReviewVersion'), mcVersion, ['v1']));
  }

  const policy = c.failurePolicy ?? '';
  if (policy === '') errs.push(required(p.child('failurePolicy')));
  else if (policy !== 'NoOpinion' && policy !== 'Deny')
    errs.push(notSupported(p.child('failurePolicy'), policy, ['NoOpinion', 'Deny']));

  errs.push(...validateConnectionInfo(c, p.child('connectionInfo')));
  errs.push(...validateMatchConditions(conditions, p.child('matchConditions')));
  return errs;
}

function validateConnectionInfo(c: WebhookConfiguration, p: FieldPath): FieldError[] {
  const info = c.connectionInfo ?? {};
  const type = info.type ?? '';
  const spec = info.platformConfigFile !== undefined || type === 'PlatformConfigFile';
  const fileField = spec ? 'platformConfigFile' : 'kubeConfigFile';
  const fileType = spec ? 'PlatformConfigFile' : 'KubeConfigFile';
  const file = info.platformConfigFile ?? info.kubeConfigFile;
  const fp = p.child(fileField);
  const errs: FieldError[] = [];
  if (info.platformConfigFile !== undefined && info.kubeConfigFile !== undefined) {
    errs.push(
      invalid(p.child('kubeConfigFile'), info.kubeConfigFile, 'may not be set together with platformConfigFile'),
    );
  }
  switch (type) {
    case '':
      errs.push(required(p.child('type')));
      break;
    case 'InClusterConfig':
      if (file !== undefined && file !== null) errs.push(invalid(fp, file, `can only be set when type=${fileType}`));
      break;
    case 'KubeConfigFile':
    case 'PlatformConfigFile': {
      if (!file) errs.push(required(fp));
      else if (!isAbsolute(file)) errs.push(invalid(fp, file, 'must be an absolute path'));
      else {
        const { stats, error } = statFile(file);
        if (error) errs.push(invalid(fp, file, `error loading file: ${error}`));
        else if (!stats!.isFile()) errs.push(invalid(fp, file, 'must be a regular file'));
      }
      break;
    }
    default:
      errs.push(notSupported(p.child('type'), type, ['InClusterConfig', 'KubeConfigFile', 'PlatformConfigFile']));
  }
  return errs;
}

function validateMatchConditions(
  conditions: NonNullable<WebhookConfiguration['matchConditions']>,
  p: FieldPath,
): FieldError[] {
  if (conditions.length > maxMatchConditions) return [tooMany(p, conditions.length, maxMatchConditions)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((mc, i) => {
    const ep = p.index(i).child('expression');
    const expression = mc.expression ?? '';
    if (expression.trim() === '') {
      errs.push(required(ep));
      return;
    }
    if (seen.has(expression)) {
      errs.push(duplicate(ep, expression));
      return;
    }
    seen.add(expression);
    const r = compileAt(ep, 'request', expression, { resultType: 'bool', reportActualType: true });
    if (r.error) errs.push(r.error);
  });
  return errs;
}
