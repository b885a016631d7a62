import { formatAjvErrors } from '../../contracts/ajv.js';
import { looksLikeErrorEnvelope, validateErrorEnvelope } from '../../contracts/responses/error-envelope.js';
import {
  RESPONSE_CONTRACTS,
  type ObservationError,
  type ResponseContractName,
} from '../../documents/index.js';
import { contextLoadV0Normalizer } from './context-load-v0.js';
import { contextPackNormalizer } from './context-pack.js';
import { memoryCliV1Normalizer } from './memory-cli-v1.js';
import { repeatedIdViolations } from './repeated-ids.js';
import { resolvedIntentNormalizer } from './resolved-intent.js';
import { retrievalResultV1Normalizer } from './retrieval-result-v1.js';
import { rgateNormalizer } from './rgate.js';
import type { NormalizedResponse, NormalizeOptions, ResponseNormalizer } from './types.js';

export type { NormalizedResponse, NormalizeOptions } from './types.js';

// keyed by the contract names: a contract without its normalizer does not compile
const NORMALIZERS = {
  rgate: rgateNormalizer,
  'context-load-v0': contextLoadV0Normalizer,
  'memory-cli-v1': memoryCliV1Normalizer,
  'retrieval-result-v1': retrievalResultV1Normalizer,
  'context-pack': contextPackNormalizer,
  'resolved-intent': resolvedIntentNormalizer,
} satisfies Record<ResponseContractName, unknown> as unknown as Readonly<
  Record<ResponseContractName, ResponseNormalizer<never>>
>;

/** Response contracts rgate understands (`trec`-style `{results:[{id,score}]}` is part of `rgate`). */
export const CONTRACT_NAMES: readonly string[] = RESPONSE_CONTRACTS;

export function isKnownContract(name: string): name is ResponseContractName {
  return CONTRACT_NAMES.includes(name);
}

/** A failed request, in Observation shape: nothing ranked, nothing used. */
export function failedResponse(
  contract: string,
  error: ObservationError,
  contractState: { valid: boolean; errors: string[] } = { valid: false, errors: [] },
): NormalizedResponse {
  return {
    ok: false,
    error,
    ranked: [],
    fallback: { triggered: false },
    usage: { files: 0, chars: 0, tokens: 0 },
    contract: { name: contract, ...contractState },
  };
}

/**
 * Validate a parsed payload against its contract and map it to Observation fields. Never throws:
 * - an error envelope becomes `ok:false` with the envelope's code as error kind (contract valid);
 * - a payload that breaks the letter of the contract (schema or cross-field rules) but has what a
 *   measurement needs (valid against the schema, or the contract's `measurable` shape) is an observation like any other, `ok:true`, its violations listed in
 *   `contract.errors` (`contract_validity` counts it invalid) and its ranking measured;
 * - a payload that cannot be measured becomes `ok:false`, kind `contract_invalid`, with the ajv lines
 *   of the letter (what the system should fix), like an unparsable answer.
 */
export function normalizeResponse(
  contract: string,
  payload: unknown,
  options: NormalizeOptions = {},
): NormalizedResponse {
  const n = isKnownContract(contract) ? NORMALIZERS[contract] : undefined;
  if (!n) {
    return failedResponse(contract, {
      kind: 'unknown_contract',
      message: `unknown response contract "${contract}" (known: ${CONTRACT_NAMES.join(', ')})`,
    });
  }
  if (looksLikeErrorEnvelope(payload)) {
    if (!validateErrorEnvelope(payload)) {
      const errors = formatAjvErrors(validateErrorEnvelope.errors);
      return failedResponse(
        contract,
        { kind: 'contract_invalid', message: `malformed error envelope: ${errors[0]}` },
        { valid: false, errors },
      );
    }
    const e = payload.error;
    return failedResponse(
      contract,
      { kind: e.code, message: e.action ? `${e.message} (action: ${e.action})` : e.message },
      { valid: true, errors: [] },
    );
  }
  const valid = n.validate(payload as never);
  const violations = valid
    ? n.crossCheck
      ? n.crossCheck(payload as never)
      : []
    : formatAjvErrors(n.validate.errors);
  // a schema-valid payload is measurable (cross-field rules are the letter); otherwise the contract's
  // measurable shape decides, and a contract without one is measurable only when valid
  if (!valid && !(n.measurable && n.measurable(payload as never))) {
    // an answer another contract can measure is most likely a config naming the wrong contract
    const others = CONTRACT_NAMES.filter(
      (c) => c !== contract && measurableAs(NORMALIZERS[c as ResponseContractName], payload),
    );
    return failedResponse(
      contract,
      {
        kind: 'contract_invalid',
        message: `response breaks ${contract} and cannot be measured: ${violations.slice(0, 3).join('; ')}${others.length ? `${READS_AS}${others.join(' or ')}` : ''}`,
      },
      { valid: false, errors: violations },
    );
  }
  const mapped = n.toObservation(payload as never, options);
  violations.push(
    ...repeatedIdViolations(mapped.ranked, (i) => n.rankedIdPath(payload as never, i, options)),
  );
  return {
    ok: true,
    ...mapped,
    contract: { name: contract, valid: violations.length === 0, errors: violations },
  };
}

/** How an unmeasurable answer's message names the other contracts it can be measured under. */
const READS_AS = '; the answer reads as ';

/**
 * The contracts a `contract_invalid` message says its answer can be measured under (in CONTRACT_NAMES
 * order), so a run whose every answer broke its contract can name the one to set.
 */
export function contractsReadAs(message: string): string[] {
  const i = message.lastIndexOf(READS_AS);
  return i === -1
    ? []
    : message
        .slice(i + READS_AS.length)
        .split(' or ')
        .filter(isKnownContract);
}

/** Schema-valid, or failing only the letter of a contract whose measurable shape it has. */
function measurableAs(n: ResponseNormalizer<never>, payload: unknown): boolean {
  return n.validate(payload as never) || (n.measurable !== undefined && n.measurable(payload as never));
}

/** Parse a raw body (stdout, a worker line, an HTTP body) and normalize it; bad JSON is `non_json`. */
export function normalizeText(
  contract: string,
  text: string,
  stderr?: string,
  options: NormalizeOptions = {},
): NormalizedResponse {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    const head = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return failedResponse(contract, {
      kind: 'non_json',
      message: `response is not JSON (${(e as Error).message}): ${JSON.stringify(head)}`,
      ...(stderr ? { stderr } : {}),
    });
  }
  return normalizeResponse(contract, payload, options);
}
