/** `TracingConfiguration` (v1beta1): OTLP gRPC endpoint and sampling rate, both optional. */
export interface TracingConfiguration {
  apiVersion: string;
  kind: 'TracingConfiguration';
  /** Defaults to `localhost:4317` at use. */
  endpoint?: string;
  samplingRatePerMillion?: number;
}
