import protobuf from 'protobufjs';
import { stringify } from 'yaml';
import { googleProtobufAnyProto, openAPIv2Proto } from './gnostic-v2-proto.js';

/**
 * The media type kubectl (through 1.28) and helm ask `/openapi/v2` for, and the one
 * kube-openapi's handler answers it with (the `@` form is deprecated; both are accepted).
 */
export const openAPIV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
export const openAPIV2ProtobufTypeDeprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type Json = unknown;
type Obj = Record<string, Json>;
/** Converts one JSON value to the plain object of a gnostic message (protobufjs `fromObject` input). */
type Conv = (v: Json, path: string) => Json;

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A document the gnostic compiler would refuse (`has invalid property`, a wrong type). */
export class OpenAPIProtoError extends Error {
  override readonly name = 'OpenAPIProtoError';
}

const fail = (path: string, what: string): never => {
  throw new OpenAPIProtoError(`${path}: ${what}`);
};

/** camelCase JSON names to the proto's snake_case (`$ref` is `_ref`). */
const snake = (k: string): string => (k === '$ref' ? '_ref' : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

const str: Conv = (v, p) => (typeof v === 'string' ? v : fail(p, 'not a string'));
const num: Conv = (v, p) => (typeof v === 'number' ? v : fail(p, 'not a number'));
const bool: Conv = (v, p) => (typeof v === 'boolean' ? v : fail(p, 'not a boolean'));
const list =
  (c: Conv): Conv =>
  (v, p) =>
    Array.isArray(v) ? v.map((x, i) => c(x, `${p}[${i}]`)) : fail(p, 'not an array');
const strs = list(str);
/** gnostic's `Any`: the value as YAML text (`NewAny` marshals the node; kubectl unmarshals it as YAML). */
const any: Conv = (v) => ({ yaml: stringify(v, { lineWidth: 0 }) });
const anys = list(any);
const named =
  (c: Conv): Conv =>
  (v, p) =>
    isObj(v) ? Object.entries(v).map(([name, x]) => ({ name, value: c(x, `${p}.${name}`) })) : fail(p, 'not an object');

/**
 * A message whose JSON properties map one to one to fields (camelCase to snake_case), with `x-`
 * properties as its `vendor_extension` when it has one. An unknown property is an error, as it is
 * for gnostic's compiler.
 */
const message =
  (fields: Record<string, Conv>, vendorExtensions = true): Conv =>
  (v, p) => {
    if (!isObj(v)) return fail(p, 'not an object');
    const out: Obj = {};
    const ext: Obj[] = [];
    for (const [k, x] of Object.entries(v)) {
      const c = fields[k];
      if (c) out[snake(k)] = c(x, `${p}.${k}`);
      else if (vendorExtensions && k.startsWith('x-')) ext.push({ name: k, value: any(x, `${p}.${k}`) });
      else fail(p, `has invalid property: ${k}`);
    }
    if (ext.length) out['vendor_extension'] = ext;
    return out;
  };

/** A message of one `additional_properties` list of named values (Definitions, Properties, ...). */
const namedMap =
  (c: Conv): Conv =>
  (v, p) => ({ additional_properties: named(c)(v, p) });

// Schemas refer to themselves: the lazy `schema` below is filled once the table exists.
// eslint-disable-next-line prefer-const
let schema: Conv;
const lazySchema: Conv = (v, p) => schema(v, p);

const externalDocs = message({ description: str, url: str });
const xml = message({ name: str, namespace: str, prefix: str, attribute: bool, wrapped: bool });
const validations: Record<string, Conv> = {
  default: any,
  maximum: num,
  exclusiveMaximum: bool,
  minimum: num,
  exclusiveMinimum: bool,
  maxLength: num,
  minLength: num,
  pattern: str,
  maxItems: num,
  minItems: num,
  uniqueItems: bool,
  enum: anys,
  multipleOf: num,
};
// eslint-disable-next-line prefer-const
let primitivesItems: Conv;
const lazyPrimitives: Conv = (v, p) => primitivesItems(v, p);
const primitiveFields: Record<string, Conv> = {
  type: str,
  format: str,
  items: lazyPrimitives,
  collectionFormat: str,
  ...validations,
};
primitivesItems = message(primitiveFields);

schema = message({
  $ref: str,
  format: str,
  title: str,
  description: str,
  default: any,
  multipleOf: num,
  maximum: num,
  exclusiveMaximum: bool,
  minimum: num,
  exclusiveMinimum: bool,
  maxLength: num,
  minLength: num,
  pattern: str,
  maxItems: num,
  minItems: num,
  uniqueItems: bool,
  maxProperties: num,
  minProperties: num,
  required: strs,
  enum: anys,
  additionalProperties: (v, p) => (typeof v === 'boolean' ? { boolean: v } : { schema: lazySchema(v, p) }),
  type: (v, p) => ({ value: typeof v === 'string' ? [v] : strs(v, p) }),
  items: (v, p) => ({ schema: Array.isArray(v) ? list(lazySchema)(v, p) : [lazySchema(v, p)] }),
  allOf: list(lazySchema),
  properties: namedMap(lazySchema),
  discriminator: str,
  readOnly: bool,
  xml,
  externalDocs,
  example: any,
});

const fileSchema = message({
  format: str,
  title: str,
  description: str,
  default: any,
  required: strs,
  type: str,
  readOnly: bool,
  externalDocs,
  example: any,
});

const jsonReference = message({ $ref: str, description: str }, false);
const paramBase: Record<string, Conv> = { required: bool, in: str, description: str, name: str };
const subSchemas: Record<string, [string, Conv]> = {
  header: ['header_parameter_sub_schema', message({ ...paramBase, ...primitiveFields })],
  formData: ['form_data_parameter_sub_schema', message({ ...paramBase, allowEmptyValue: bool, ...primitiveFields })],
  query: ['query_parameter_sub_schema', message({ ...paramBase, allowEmptyValue: bool, ...primitiveFields })],
  path: ['path_parameter_sub_schema', message({ ...paramBase, ...primitiveFields })],
};
const bodyParameter = message({ description: str, name: str, in: str, required: bool, schema });
const parameter: Conv = (v, p) => {
  if (!isObj(v)) return fail(p, 'not an object');
  if (v['in'] === 'body') return { body_parameter: bodyParameter(v, p) };
  const sub = subSchemas[String(v['in'])];
  if (!sub) return fail(p, `has an invalid "in": ${String(v['in'])}`);
  return { non_body_parameter: { [sub[0]]: sub[1](v, p) } };
};
const parametersItem: Conv = (v, p) =>
  isObj(v) && '$ref' in v ? { json_reference: jsonReference(v, p) } : { parameter: parameter(v, p) };

const header = message({ ...primitiveFields, description: str });
const response = message({
  description: str,
  schema: (v, p) => (isObj(v) && v['type'] === 'file' ? { file_schema: fileSchema(v, p) } : { schema: schema(v, p) }),
  headers: namedMap(header),
  examples: namedMap(any),
});
const responseValue: Conv = (v, p) =>
  isObj(v) && '$ref' in v ? { json_reference: jsonReference(v, p) } : { response: response(v, p) };
const responses: Conv = (v, p) => {
  if (!isObj(v)) return fail(p, 'not an object');
  const out: { response_code: Obj[]; vendor_extension?: Obj[] } = { response_code: [] };
  for (const [k, x] of Object.entries(v)) {
    if (/^([0-9]{3})$|^(default)$/.test(k)) out.response_code.push({ name: k, value: responseValue(x, `${p}.${k}`) });
    else if (k.startsWith('x-')) (out.vendor_extension ??= []).push({ name: k, value: any(x, `${p}.${k}`) });
    else fail(p, `has invalid property: ${k}`);
  }
  return out;
};

const securityRequirement: Conv = (v, p) => ({
  additional_properties: named((x, q) => ({ value: strs(x, q) }))(v, p),
});
const scopes = namedMap(str);
const securityTypes: Record<string, [string, Conv]> = {
  basic: ['basic_authentication_security', message({ type: str, description: str })],
  apiKey: ['api_key_security', message({ type: str, name: str, in: str, description: str })],
};
const oauth2Flows: Record<string, [string, Conv]> = {
  implicit: [
    'oauth2_implicit_security',
    message({ type: str, flow: str, scopes, authorizationUrl: str, description: str }),
  ],
  password: ['oauth2_password_security', message({ type: str, flow: str, scopes, tokenUrl: str, description: str })],
  application: [
    'oauth2_application_security',
    message({ type: str, flow: str, scopes, tokenUrl: str, description: str }),
  ],
  accessCode: [
    'oauth2_access_code_security',
    message({ type: str, flow: str, scopes, authorizationUrl: str, tokenUrl: str, description: str }),
  ],
};
const securityDefinitionsItem: Conv = (v, p) => {
  if (!isObj(v)) return fail(p, 'not an object');
  const kind = v['type'] === 'oauth2' ? oauth2Flows[String(v['flow'])] : securityTypes[String(v['type'])];
  if (!kind) return fail(p, `has an invalid security type: ${String(v['type'])}`);
  return { [kind[0]]: kind[1](v, p) };
};

const operation = message({
  tags: strs,
  summary: str,
  description: str,
  externalDocs,
  operationId: str,
  produces: strs,
  consumes: strs,
  parameters: list(parametersItem),
  responses,
  schemes: strs,
  deprecated: bool,
  security: list(securityRequirement),
});
const pathItem = message({
  $ref: str,
  get: operation,
  put: operation,
  post: operation,
  delete: operation,
  options: operation,
  head: operation,
  patch: operation,
  parameters: list(parametersItem),
});
const paths: Conv = (v, p) => {
  if (!isObj(v)) return fail(p, 'not an object');
  const out: { path: Obj[]; vendor_extension?: Obj[] } = { path: [] };
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('/')) out.path.push({ name: k, value: pathItem(x, `${p}.${k}`) });
    else if (k.startsWith('x-')) (out.vendor_extension ??= []).push({ name: k, value: any(x, `${p}.${k}`) });
    else fail(p, `has invalid property: ${k}`);
  }
  return out;
};

const document = message({
  swagger: str,
  info: message({
    title: str,
    version: str,
    description: str,
    termsOfService: str,
    contact: message({ name: str, url: str, email: str }),
    license: message({ name: str, url: str }),
  }),
  host: str,
  basePath: str,
  schemes: strs,
  consumes: strs,
  produces: strs,
  paths,
  definitions: namedMap(schema),
  parameters: namedMap(parameter),
  responses: namedMap(response),
  security: list(securityRequirement),
  securityDefinitions: namedMap(securityDefinitionsItem),
  tags: list(message({ name: str, description: str, externalDocs })),
  externalDocs,
});

let documentType: protobuf.Type | undefined;
/** The `openapi.v2.Document` message type, parsed once from the gnostic definitions. */
export function openAPIV2DocumentType(): protobuf.Type {
  if (!documentType) {
    const root = new protobuf.Root();
    protobuf.parse(googleProtobufAnyProto, root, { keepCase: true });
    protobuf.parse(openAPIv2Proto, root, { keepCase: true });
    root.resolveAll();
    documentType = root.lookupType('openapi.v2.Document');
  }
  return documentType;
}

/**
 * kube-openapi's `ToProtoBinary`: an OpenAPI v2 (Swagger 2.0) JSON document as gnostic's
 * `openapi.v2.Document`, protobuf-encoded. Maps keep the document's order; `x-` extensions and
 * `default`/`enum`/`example` values are `Any` messages holding YAML text, as gnostic compiles them.
 */
export function openAPIV2ToProtobuf(doc: unknown): Buffer {
  const type = openAPIV2DocumentType();
  const plain = document(doc, '$') as Obj;
  return Buffer.from(type.encode(type.fromObject(plain)).finish());
}
