// The schema the differential cases are written against: one struct whose fields cover every
// kind structured-merge-diff distinguishes (scalars, granular and atomic structs and maps, set
// lists, map lists with one, two and optional keys, atomic lists, nested lists, deduced values).
export const typeName = 'root';

/** The type of each API version of the multi-version cases: v2 is root with `s` named `sv2`. */
export const versionTypes = { v1: 'root', v2: 'rootv2' };

/** The fields of the root type after its first, `s` (named `sv2` at v2). */
const rootFields = `    - name: num
      type: {scalar: numeric}
    - name: flag
      type: {scalar: boolean}
    - name: struct
      type: {namedType: inner}
    - name: atomicStruct
      type: {namedType: atomicInner}
    - name: labels
      type:
        map:
          elementType: {scalar: string}
    - name: atomicMap
      type:
        map:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: mapOfStructs
      type:
        map:
          elementType: {namedType: inner}
    - name: set
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
    - name: numSet
      type:
        list:
          elementType: {scalar: numeric}
          elementRelationship: associative
    - name: items
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name]
    - name: ports
      type:
        list:
          elementType: {namedType: port}
          elementRelationship: associative
          keys: [port, protocol]
    - name: atomicList
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: atomicItems
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: atomic
    - name: nested
      type:
        list:
          elementType:
            list:
              elementType: {scalar: string}
              elementRelationship: atomic
          elementRelationship: atomic
    - name: any
      type: {namedType: __untyped_deduced_}
`;

/** A root type whose first field is `s` under `sName`. */
const rootType = (name, sName) => `- name: ${name}
  map:
    fields:
    - name: ${sName}
      type: {scalar: string}
${rootFields}`;

export const schemaYAML = `types:
${rootType('root', 's')}${rootType('rootv2', 'sv2')}- name: inner
  map:
    fields:
    - name: x
      type: {scalar: string}
    - name: yy
      type: {scalar: numeric}
    - name: deep
      type: {namedType: inner}
    - name: tags
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
- name: atomicInner
  map:
    fields:
    - name: x
      type: {scalar: string}
    - name: yy
      type: {scalar: numeric}
    elementRelationship: atomic
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: value
      type: {scalar: string}
    - name: sub
      type: {namedType: inner}
    - name: subList
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name]
- name: port
  map:
    fields:
    - name: port
      type: {scalar: numeric}
    - name: protocol
      type: {scalar: string}
      default: TCP
    - name: name
      type: {scalar: string}
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
`;
