import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { formatDuration, parseDuration, type Event } from '@kevents/api';

/** The group/version of the controller's config kinds. */
export const retentionApiVersion = 'controller.config.kevents.io/v1alpha1';
/** The kind of the retention-rule file given to `--retention-config`. */
export const retentionKind = 'EventRetentionConfiguration';

/** Which events a rule applies to: every listed field must contain the event's value. */
export interface RetentionMatch {
  types?: string[];
  reasons?: string[];
  reportingControllers?: string[];
  namespaces?: string[];
  /** Values of the `kevents.io/cluster` label (the mirror's source names); an event without it has the value ''. */
  clusters?: string[];
}

/** One rule: events that match keep for `ttl` after their last write. */
export interface RetentionRule {
  name?: string;
  match: RetentionMatch;
  /** A Go duration (`24h`, `90m`); greater than zero. */
  ttl: string;
}

/**
 * `EventRetentionConfiguration` (controller.config.kevents.io/v1alpha1): per-event TTLs, counted
 * from each event's last write (as kube-apiserver's `--event-ttl`). The
 * first rule whose `match` fits an event gives its TTL; events no rule matches keep the
 * `--event-ttl`. Example in docs/operations.md.
 */
export interface EventRetentionConfiguration {
  apiVersion: typeof retentionApiVersion;
  kind: typeof retentionKind;
  rules: RetentionRule[];
}

/** A Kubernetes-style field error: `<field>: <Type>: <value>: <detail>`. */
export interface FieldError {
  readonly field: string;
  readonly type: 'Required value' | 'Invalid value' | 'Unsupported value' | 'Duplicate value' | 'Forbidden';
  readonly value?: unknown;
  readonly detail?: string;
}

/** Formats a field error the way Kubernetes prints it. */
export function formatFieldError(e: FieldError): string {
  const value = e.type === 'Required value' || e.type === 'Forbidden' ? '' : `: ${JSON.stringify(e.value ?? null)}`;
  return `${e.field}: ${e.type}${value}${e.detail ? `: ${e.detail}` : ''}`;
}

const matchFields = ['types', 'reasons', 'reportingControllers', 'namespaces', 'clusters'] as const;

/** Strictly validates a decoded document as an {@link EventRetentionConfiguration}. */
export function validateRetentionConfig(doc: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return [{ field: '<root>', type: 'Invalid value', value: doc, detail: 'must be an object' }];
  const o = doc as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['apiVersion', 'kind', 'rules'].includes(k))
      errs.push({ field: k, type: 'Forbidden', detail: 'unknown field' });
  if (o['apiVersion'] === undefined) errs.push({ field: 'apiVersion', type: 'Required value' });
  else if (o['apiVersion'] !== retentionApiVersion)
    errs.push({
      field: 'apiVersion',
      type: 'Unsupported value',
      value: o['apiVersion'],
      detail: `supported values: "${retentionApiVersion}"`,
    });
  if (o['kind'] === undefined) errs.push({ field: 'kind', type: 'Required value' });
  else if (o['kind'] !== retentionKind)
    errs.push({
      field: 'kind',
      type: 'Unsupported value',
      value: o['kind'],
      detail: `supported values: "${retentionKind}"`,
    });
  const rules = o['rules'];
  if (rules === undefined) return errs;
  if (!Array.isArray(rules))
    return [...errs, { field: 'rules', type: 'Invalid value', value: rules, detail: 'must be a list' }];
  const names = new Set<string>();
  rules.forEach((r: unknown, i) => {
    const p = `rules[${i}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      errs.push({ field: p, type: 'Invalid value', value: r, detail: 'must be an object' });
      return;
    }
    const rule = r as Record<string, unknown>;
    for (const k of Object.keys(rule))
      if (!['name', 'match', 'ttl'].includes(k))
        errs.push({ field: `${p}.${k}`, type: 'Forbidden', detail: 'unknown field' });
    if (rule['name'] !== undefined) {
      if (typeof rule['name'] !== 'string' || rule['name'] === '')
        errs.push({
          field: `${p}.name`,
          type: 'Invalid value',
          value: rule['name'],
          detail: 'must be a non-empty string',
        });
      else if (names.has(rule['name'])) errs.push({ field: `${p}.name`, type: 'Duplicate value', value: rule['name'] });
      else names.add(rule['name']);
    }
    if (rule['ttl'] === undefined) errs.push({ field: `${p}.ttl`, type: 'Required value' });
    else {
      const ns = typeof rule['ttl'] === 'string' ? parseDuration(rule['ttl']) : undefined;
      if (ns === undefined)
        errs.push({
          field: `${p}.ttl`,
          type: 'Invalid value',
          value: rule['ttl'],
          detail: 'must be a duration such as 1h or 90m',
        });
      else if (ns <= 0)
        errs.push({
          field: `${p}.ttl`,
          type: 'Invalid value',
          value: rule['ttl'],
          detail: 'must be greater than zero',
        });
    }
    const m = rule['match'];
    if (m === undefined) {
      errs.push({
        field: `${p}.match`,
        type: 'Required value',
        detail: 'an empty match {} applies the rule to every event',
      });
      return;
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m)) {
      errs.push({ field: `${p}.match`, type: 'Invalid value', value: m, detail: 'must be an object' });
      return;
    }
    for (const [k, v] of Object.entries(m)) {
      const f = `${p}.match.${k}`;
      if (!(matchFields as readonly string[]).includes(k)) {
        errs.push({ field: f, type: 'Forbidden', detail: 'unknown field' });
        continue;
      }
      if (!Array.isArray(v) || v.length === 0) {
        errs.push({ field: f, type: 'Invalid value', value: v, detail: 'must be a non-empty list of strings' });
        continue;
      }
      v.forEach((s: unknown, j) => {
        if (typeof s !== 'string' || s === '')
          errs.push({ field: `${f}[${j}]`, type: 'Invalid value', value: s, detail: 'must be a non-empty string' });
      });
    }
  });
  return errs;
}

/** Thrown when a retention config file cannot be read or is invalid; `errors` has one line each. */
export class RetentionConfigError extends Error {
  override readonly name = 'RetentionConfigError';
  readonly errors: readonly string[];
  constructor(file: string, errors: readonly string[]) {
    super(`${file}: invalid ${retentionKind}:\n  ${errors.join('\n  ')}`);
    this.errors = errors;
  }
}

/** Reads, decodes (YAML or JSON) and validates a retention config file. */
export function loadRetentionConfig(file: string): EventRetentionConfiguration {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RetentionConfigError(file, [(err as Error).message]);
  }
  const errs = validateRetentionConfig(doc);
  if (errs.length > 0) throw new RetentionConfigError(file, errs.map(formatFieldError));
  return doc as EventRetentionConfiguration;
}

/** Resolves an event's TTL (ms) from the rules, falling back to `defaultTtlMs`. */
export class RetentionPolicy {
  private readonly rules: { name: string; match: RetentionMatch; ttlMs: number }[];
  readonly defaultTtlMs: number;

  constructor(defaultTtlMs: number, config?: EventRetentionConfiguration) {
    this.defaultTtlMs = defaultTtlMs;
    this.rules = (config?.rules ?? []).map((r, i) => ({
      name: r.name ?? `rules[${i}]`,
      match: r.match,
      ttlMs: parseDuration(r.ttl)! / 1e6,
    }));
  }

  ttlFor(e: Event): number {
    for (const r of this.rules) if (matches(r.match, e)) return r.ttlMs;
    return this.defaultTtlMs;
  }

  /** One line per rule, for the startup log. */
  describe(): string[] {
    return [
      ...this.rules.map((r) => `${r.name}: ${JSON.stringify(r.match)} -> ${formatDuration(r.ttlMs * 1e6)}`),
      `default: ${formatDuration(this.defaultTtlMs * 1e6)}`,
    ];
  }
}

function matches(m: RetentionMatch, e: Event): boolean {
  const has = (list: string[] | undefined, v: string | undefined): boolean => !list || list.includes(v ?? '');
  return (
    has(m.types, e.type) &&
    has(m.reasons, e.reason) &&
    has(m.reportingControllers, e.reportingController) &&
    has(m.namespaces, e.metadata.namespace) &&
    has(m.clusters, e.metadata.labels?.['kevents.io/cluster'])
  );
}
