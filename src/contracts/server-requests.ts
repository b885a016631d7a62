/**
 * The validators of the small JSON bodies `rgate server` accepts besides uploads (a new project, a
 * new token, a suite's baseline): each body is a document of src/documents, checked here as strictly
 * as an upload and failing the same way, with the JSON path of its first problem.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema, formatAjvErrors } from './ajv.js';
import { firstProblem } from './run-upload.js';
import {
  BaselineBodySchema,
  NewProjectBodySchema,
  NewTokenBodySchema,
  ProjectSettingsBodySchema,
  VsBaseGateSchema,
  type VsBaseGate,
  type BaselineBody,
  type NewProjectBody,
  type NewTokenBody,
  type ProjectSettingsBody,
} from '../documents/index.js';

export const validateNewProjectBody = compileSchema<NewProjectBody>(NewProjectBodySchema, 'new-project-body');
export const validateProjectSettingsBody = compileSchema<ProjectSettingsBody>(
  ProjectSettingsBodySchema,
  'project-settings-body',
);
export const validateNewTokenBody = compileSchema<NewTokenBody>(NewTokenBodySchema, 'new-token-body');
export const validateBaselineBody = compileSchema<BaselineBody>(BaselineBodySchema, 'baseline-body');

/** A request body checked: the document, or its first problem as `/json/path: message` (and how many more). */
export type BodyCheck<T> = { ok: true; body: T } | ReturnType<typeof firstProblem>;

export function checkBody<T>(validate: ValidateFunction<T>, value: unknown): BodyCheck<T> {
  return validate(value) ? { ok: true, body: value } : firstProblem(formatAjvErrors(validate.errors));
}

/** The server's judgment of a run's vs-base rules, as `rgate upload` reads it from the upload's answer. */
export const validateVsBaseGate = compileSchema<VsBaseGate>(VsBaseGateSchema, 'vs-base-gate');
