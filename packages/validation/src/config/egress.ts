import type { Connection, EgressSelectorConfiguration, TCPTransport } from '@kevents/api';
import { FieldPath } from '../field/path.js';
import { duplicate, invalid, notSupported, required, type FieldError } from '../field/error.js';
import { fileExists } from './files.js';

/** The egress selection names kube-apiserver accepts (after `master` became `controlplane`). */
export const egressSelectionNames: readonly string[] = ['cluster', 'controlplane', 'etcd'];

/**
 * `ValidateEgressSelectorConfiguration`: connection rules for every selection first, then names.
 * Paths are structural (`egressSelections[0].connection.transport.tcp.url`); Kubernetes prints
 * `service.connection...` instead. An exact `master` counts as `controlplane`, as conversion does.
 */
export function validateEgressSelectorConfiguration(c: EgressSelectorConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const selections = c.egressSelections ?? [];
  const root = FieldPath.root('egressSelections');
  selections.forEach((s, i) => {
    errs.push(...validateConnection(s.connection ?? {}, root.index(i).child('connection')));
  });
  const seen = new Set<string>();
  selections.forEach((s, i) => {
    const raw = s.name === 'master' ? 'controlplane' : (s.name ?? '');
    const name = raw.toLowerCase();
    const p = root.index(i).child('name');
    if (seen.has(name)) errs.push(duplicate(p, name));
    else if (!egressSelectionNames.includes(name)) errs.push(notSupported(p, name, egressSelectionNames));
    seen.add(name);
  });
  return errs;
}

function validateConnection(c: Connection, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const transport = c.transport;
  const tp = p.child('transport');
  switch (c.proxyProtocol) {
    case 'Direct':
      if (transport !== undefined && transport !== null)
        errs.push(invalid(tp, 'direct', 'config must be absent for direct connect'));
      break;
    case 'HTTPConnect':
      if (!transport) errs.push(required(tp, 'transport must be set for HTTPConnect'));
      else if (transport.tcp && transport.uds)
        errs.push(invalid(tp.child('tcp'), transport.tcp, 'TCP and UDS cannot both be set'));
      else if (!transport.tcp && !transport.uds) errs.push(required(tp.child('tcp'), 'One of TCP or UDS must be set'));
      else if (transport.tcp) errs.push(...validateTCP(transport.tcp, tp.child('tcp')));
      else if (transport.uds && !transport.uds.udsName) {
        errs.push(invalid(tp.child('uds', 'udsName'), 'nil', 'must be present for UDS connections'));
      }
      break;
    case 'GRPC':
      if (!transport) errs.push(required(tp, 'transport must be set for GRPC'));
      else if (!transport.uds) errs.push(required(tp.child('uds'), 'UDS must be set with GRPC'));
      else if (!transport.uds.udsName)
        errs.push(invalid(tp.child('uds', 'udsName'), 'nil', 'must be present for UDS connections'));
      break;
    default:
      errs.push(notSupported(p.child('proxyProtocol'), c.proxyProtocol ?? '', ['Direct', 'HTTPConnect', 'GRPC']));
  }
  return errs;
}

function validateTCP(tcp: TCPTransport, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const url = tcp.url ?? '';
  const tls = tcp.tlsConfig;
  const tlsPath = p.child('tlsConfig');
  if (url.startsWith('http://')) {
    if (tls !== undefined && tls !== null)
      errs.push(invalid(tlsPath, 'nil', 'config must not be present when using HTTP'));
  } else if (url.startsWith('https://')) {
    if (!tls) errs.push(required(tlsPath, 'TLSConfig must be present when using HTTPS'));
    else {
      if (tls.caBundle && !fileExists(tls.caBundle))
        errs.push(invalid(tlsPath.child('caBundle'), tls.caBundle, 'TLS config ca bundle does not exist'));
      if (!tls.clientCert) errs.push(invalid(tlsPath.child('clientCert'), 'nil', 'Using TLS requires clientCert'));
      else if (!fileExists(tls.clientCert))
        errs.push(invalid(tlsPath.child('clientCert'), tls.clientCert, 'TLS client cert does not exist'));
      if (!tls.clientKey)
        errs.push(invalid(tlsPath.child('clientKey'), 'nil', 'Using TLS requires requires clientKey'));
      else if (!fileExists(tls.clientKey))
        errs.push(invalid(tlsPath.child('clientKey'), tls.clientKey, 'TLS client key does not exist'));
    }
  } else {
    errs.push(invalid(p.child('url'), url, 'supported connection protocols are http:// and https://'));
  }
  return errs;
}
