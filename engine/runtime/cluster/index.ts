// The cluster backend (coordinator) and the worker node: the public surface of engine/runtime/cluster.
export {
  ClusterBackend,
  type ClusterAlarm,
  type ClusterBackendOptions,
} from './cluster-backend.ts';
export { WorkerNode, type WorkerNodeOptions } from './worker-node.ts';
export { HEARTBEAT, type HeartbeatTiming } from './protocol.ts';
export { parseRedisUrl } from './redis-url.ts';
