import type { Response } from 'express';
import { errorBody, type ErrorIssue } from '#common/contracts/error.ts';

/** The errors a route throws, and the one writer of an error answer. */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message?: string,
    /** More of the answer beside error and message (the problems of a file, the current record). */
    readonly details?: Record<string, unknown>,
    /** The fields at fault and a machine code for each (`{path: 'phone', code: 'invalid_phone'}`). */
    readonly issues?: readonly ErrorIssue[],
  ) {
    super(message ?? code);
  }
}

/** A 400 `validation_error` naming each problem at its path; the message lists them for logs. */
export const invalidInput = (issues: readonly ErrorIssue[], message?: string): HttpError =>
  new HttpError(
    400,
    'validation_error',
    message ?? issues.map((issue) => `${issue.path}: ${issue.code}`).join('; '),
    undefined,
    issues,
  );

/** One field refused: `code` for the client, `why` (English, for logs) in the message. */
export const invalidField = (path: string, code: string, why = code): HttpError =>
  invalidInput([{ path, code }], `${path}: ${why}`);

/**
 * 409 `already_registered` at the e-mail field: the address has an account in the workspace group
 * (a registration of it, or an organisation invitation for it as contact).
 */
export const alreadyRegistered = (): HttpError =>
  new HttpError(
    409,
    'already_registered',
    'this e-mail address already has an account',
    undefined,
    [{ path: 'email', code: 'already_registered' }],
  );

/** The sandbox's only writer of an error answer: the shape of common/contracts/error.ts. */
export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  issues?: readonly ErrorIssue[],
  extra?: Record<string, unknown>,
): void {
  res.status(status).json(errorBody(error, message, issues, extra));
}

export const notFound = (what = 'resource'): HttpError =>
  new HttpError(404, 'not_found', `${what} not found`);
