// How the lists read by the thousand are cut as they arrive: nodes and the pods on nodes are
// asked for in protobuf and decoded straight into the records the engine reads of them
// (protobuf/), and a server that answers JSON has its pages cut to the same records (compact.ts).
// The single pod's read (readPod.ts) and triage (readTriage.ts) read nodes the same way.
import type { V1Pod } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import { compactNeighbour, compactNode } from './compact.js';
import { neighbourPodPages, nodePages } from './protobuf/envelope.js';
import type { GetRequest } from './transport.js';

/** What a list's pages go through (Transport.list): the protobuf decoder, or JSON's cut. */
export interface ListCut<T> {
  decodeProtobuf?: GetRequest['decodeProtobuf'];
  reduce?: (item: T) => T;
  /** Array members cut out of a JSON page's bytes before it is parsed (managedFields always are). */
  dropArrays?: readonly string[];
}

/** Nodes as NodeRecords; a JSON page loses status.images (most of a node) before it is parsed. */
export function nodeListCut(): ListCut<NodeRecord> {
  return { decodeProtobuf: nodePages(), reduce: compactNode, dropArrays: ['images'] };
}

/**
 * Pods bound to nodes as compactNeighbour's records. One cut per read: its decoder keeps the
 * strings repeated across the read's pages (label keys and values, resource names) once.
 */
export function neighbourListCut(): ListCut<V1Pod> {
  return { decodeProtobuf: neighbourPodPages(), reduce: compactNeighbour };
}
