/**
 * The subset of the OpenTelemetry proto (opentelemetry-proto v1: `collector/trace/v1/trace_service.proto`,
 * `trace/v1/trace.proto`, `common/v1/common.proto`, `resource/v1/resource.proto`) a trace receiver
 * decodes, as a protobufjs descriptor. Message names are flattened into the service's package: only
 * field numbers and types travel on the wire, and the method path stays
 * `/opentelemetry.proto.collector.trace.v1.TraceService/Export`.
 */
export const otlpTraceDescriptor = {
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            collector: {
              nested: {
                trace: {
                  nested: {
                    v1: {
                      nested: {
                        TraceService: {
                          methods: {
                            Export: {
                              requestType: 'ExportTraceServiceRequest',
                              responseType: 'ExportTraceServiceResponse',
                            },
                          },
                        },
                        ExportTraceServiceRequest: {
                          fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } },
                        },
                        ExportTraceServiceResponse: {
                          fields: { partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } },
                        },
                        ExportTracePartialSuccess: {
                          fields: { rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } },
                        },
                        ResourceSpans: {
                          fields: {
                            resource: { type: 'Resource', id: 1 },
                            scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
                            schemaUrl: { type: 'string', id: 3 },
                          },
                        },
                        Resource: {
                          fields: {
                            attributes: { rule: 'repeated', type: 'KeyValue', id: 1 },
                            droppedAttributesCount: { type: 'uint32', id: 2 },
                          },
                        },
                        ScopeSpans: {
                          fields: {
                            scope: { type: 'InstrumentationScope', id: 1 },
                            spans: { rule: 'repeated', type: 'Span', id: 2 },
                            schemaUrl: { type: 'string', id: 3 },
                          },
                        },
                        InstrumentationScope: {
                          fields: {
                            name: { type: 'string', id: 1 },
                            version: { type: 'string', id: 2 },
                            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
                            droppedAttributesCount: { type: 'uint32', id: 4 },
                          },
                        },
                        Span: {
                          fields: {
                            traceId: { type: 'bytes', id: 1 },
                            spanId: { type: 'bytes', id: 2 },
                            traceState: { type: 'string', id: 3 },
                            parentSpanId: { type: 'bytes', id: 4 },
                            flags: { type: 'fixed32', id: 16 },
                            name: { type: 'string', id: 5 },
                            kind: { type: 'int32', id: 6 },
                            startTimeUnixNano: { type: 'fixed64', id: 7 },
                            endTimeUnixNano: { type: 'fixed64', id: 8 },
                            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
                            droppedAttributesCount: { type: 'uint32', id: 10 },
                            links: { rule: 'repeated', type: 'Link', id: 13 },
                            droppedLinksCount: { type: 'uint32', id: 14 },
                            status: { type: 'Status', id: 15 },
                          },
                        },
                        Link: {
                          fields: {
                            traceId: { type: 'bytes', id: 1 },
                            spanId: { type: 'bytes', id: 2 },
                            traceState: { type: 'string', id: 3 },
                            attributes: { rule: 'repeated', type: 'KeyValue', id: 4 },
                            droppedAttributesCount: { type: 'uint32', id: 5 },
                            flags: { type: 'fixed32', id: 6 },
                          },
                        },
                        Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
                        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
                        AnyValue: {
                          oneofs: {
                            value: {
                              oneof: [
                                'stringValue',
                                'boolValue',
                                'intValue',
                                'doubleValue',
                                'arrayValue',
                                'kvlistValue',
                                'bytesValue',
                              ],
                            },
                          },
                          fields: {
                            stringValue: { type: 'string', id: 1 },
                            boolValue: { type: 'bool', id: 2 },
                            intValue: { type: 'int64', id: 3 },
                            doubleValue: { type: 'double', id: 4 },
                            arrayValue: { type: 'ArrayValue', id: 5 },
                            kvlistValue: { type: 'KeyValueList', id: 6 },
                            bytesValue: { type: 'bytes', id: 7 },
                          },
                        },
                        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
                        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
