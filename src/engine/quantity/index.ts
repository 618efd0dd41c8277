// Public API of exact Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource).
export { parseQuantity, QuantityError } from './parse.js';
export {
  add,
  compare,
  fromMilli,
  fromValue,
  isZero,
  milliValue,
  sub,
  value,
  type Quantity,
} from './quantity.js';
export { formatBytes, formatCount, formatCpu, formatMilli, formatResource, isByteResource } from './format.js';
