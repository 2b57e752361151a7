import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { PlainCounter } from '@kevents/metrics';

/** Result label of one webhook attempt (`success`, `canceled`, `timeout`, `error`). */
export type WebhookResult = 'success' | 'canceled' | 'timeout' | 'error';

/**
 * kube-apiserver's authorizer metrics, registered once per server on its registry and shared by
 * every chain a reload builds: decisions per authorizer (`pkg/authorization/metrics`), webhook
 * attempts (`plugin/pkg/authorizer/webhook/metrics`) and match conditions
 * (`pkg/authorization/cel/metrics.go`).
 */
export class AuthorizationMetrics {
  /** `apiserver_authorization_decisions_total{type,name,decision}`, counted on every decision (plain numbers). */
  readonly decisions: PlainCounter;
  readonly webhookEvaluations: Counter<'name' | 'result'>;
  readonly webhookDuration: Histogram<'name' | 'result'>;
  readonly webhookFailOpen: Counter<'name' | 'result'>;
  readonly matchConditionDuration: Histogram<'type' | 'name'>;
  readonly matchConditionExclusions: Counter<'type' | 'name'>;
  readonly matchConditionErrors: Counter<'type' | 'name'>;

  constructor(registry?: Registry) {
    const registers = registry ? [registry] : [];
    this.decisions = new PlainCounter(registry, {
      name: 'apiserver_authorization_decisions_total',
      help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    });
    this.webhookEvaluations = new Counter({
      name: 'apiserver_authorization_webhook_evaluations_total',
      help: 'Round-trips to authorization webhooks.',
      labelNames: ['name', 'result'],
      registers,
    });
    this.webhookDuration = new Histogram({
      name: 'apiserver_authorization_webhook_duration_seconds',
      help: 'Request latency in seconds.',
      labelNames: ['name', 'result'],
      registers,
    });
    this.webhookFailOpen = new Counter({
      name: 'apiserver_authorization_webhook_evaluations_fail_open_total',
      help: 'NoOpinion results due to webhook timeout or error.',
      labelNames: ['name', 'result'],
      registers,
    });
    this.matchConditionDuration = new Histogram({
      name: 'apiserver_authorization_match_condition_evaluation_seconds',
      help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.',
      labelNames: ['type', 'name'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25],
      registers,
    });
    this.matchConditionExclusions = new Counter({
      name: 'apiserver_authorization_match_condition_exclusions_total',
      help: 'Total number of exclusions when an authorization webhook is skipped by match conditions, split by authorizer type and name.',
      labelNames: ['type', 'name'],
      registers,
    });
    this.matchConditionErrors = new Counter({
      name: 'apiserver_authorization_match_condition_evaluation_errors_total',
      help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
      labelNames: ['type', 'name'],
      registers,
    });
  }
}
