// Every structured reason a rule can give, by `kind`: the union of the details of the rules in
// the registry (src/plugins.ts), each declared with its rule (rules/<Plugin>.ts). English is
// made from these in src/messages/, never in the rules.
export type { ReasonDetail, ReasonKind } from '../plugins.js';
