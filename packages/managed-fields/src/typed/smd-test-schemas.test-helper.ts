import { parse } from 'yaml';
import { fromSMDSchema } from '../schema/smd-schema.js';

/** Schemas of structured-merge-diff typed/remove_test.go (simplePairSchema, structGrabBagSchema, associativeAndAtomicSchema). */
export const simplePair = fromSMDSchema(
  parse(`types:
- name: stringPair
  map:
    fields:
    - name: key
      type:
        scalar: string
    - name: value
      type:
        namedType: __untyped_atomic_
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
`),
  'stringPair',
);
export const structGrabBag = fromSMDSchema(
  parse(`types:
- name: myStruct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    - name: bool
      type:
        scalar: boolean
    - name: setStr
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative
    - name: setBool
      type:
        list:
          elementType:
            scalar: boolean
          elementRelationship: associative
    - name: setNumeric
      type:
        list:
          elementType:
            scalar: numeric
          elementRelationship: associative
`),
  'myStruct',
);
export const associativeAndAtomic = fromSMDSchema(
  parse(`types:
- name: myRoot
  map:
    fields:
    - name: list
      type:
        namedType: myList
    - name: atomicList
      type:
        namedType: mySequence
    - name: atomicMap
      type:
        namedType: myAtomicMap
    - name: atomicElementList
      type:
        namedType: myAtomicElementList
- name: myList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - key
    - id
- name: myAtomicMap
  map:
    fields:
    - name: id
      type:
        scalar: string
    elementType:
      scalar: string
    elementRelationship: atomic
- name: myAtomicElementList
  list:
    elementType:
      namedType: myAtomicMap
    elementRelationship: associative
    keys:
    - id
- name: mySequence
  list:
    elementType:
      scalar: string
    elementRelationship: atomic
- name: myElement
  map:
    fields:
    - name: key
      type:
        scalar: string
    - name: id
      type:
        scalar: numeric
    - name: value
      type:
        namedType: myValue
    - name: bv
      type:
        scalar: boolean
    - name: nv
      type:
        scalar: numeric
- name: myValue
  map:
    elementType:
      scalar: string
`),
  'myRoot',
);
