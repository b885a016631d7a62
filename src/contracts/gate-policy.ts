/**
 * Gate policy files: structure only. Whether a rule's metric id exists, and exactly one of min / max
 * with a readable message, is checked by the policy loader in gates/ (contracts may not import
 * src/metrics), which reports the JSON path of the problem.
 */
import { compileSchema } from './ajv.js';
import { GatePolicySchema, type GatePolicy } from '../documents/index.js';

export const validateGatePolicySchema = compileSchema<GatePolicy>(GatePolicySchema, 'gate-policy');
