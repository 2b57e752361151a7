import { AlwaysOffSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import type { Sampler } from '@opentelemetry/sdk-trace';

/**
 * component-base's sampler: `ParentBased(TraceIDRatioBased(rate / 1e6))`, and `ParentBased(NeverSample)`
 * when the rate is unset or 0 (a sampled parent still samples; an unsampled one does not).
 */
export function samplerFor(samplingRatePerMillion: number | undefined): Sampler {
  const rate = samplingRatePerMillion ?? 0;
  const root = rate > 0 ? new TraceIdRatioBasedSampler(rate / 1_000_000) : new AlwaysOffSampler();
  return new ParentBasedSampler({ root });
}
