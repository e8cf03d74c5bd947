import * as v from 'valibot';
import { MAX_USER_REF_LENGTH, isValidUserRef } from 'parley-sdk/sign-link';
import { parseInput, type ErrorCode } from '../errors.ts';

// The rule signLink checks too: one implementation, the SDK's.
export { isValidUserRef };

/**
 * A userRef field: absent or empty is `missing`, over 1,024 characters (code
 * points, which JSON Schema's maxLength counts too) `Invalid userRef parameter`.
 */
export const userRefSchema = (missing: ErrorCode) =>
  v.pipe(
    v.string(missing),
    v.nonEmpty(missing),
    v.check(isValidUserRef, 'invalidUserRef' satisfies ErrorCode),
    v.metadata({ maxLength: MAX_USER_REF_LENGTH }),
    v.description(`Your identifier of the person: 1 to ${MAX_USER_REF_LENGTH} characters.`),
  );

const USER_REF = userRefSchema('missingUserRef');

/** A userRef as the API takes it. */
export const requireUserRef = (value: string | undefined): string => parseInput(USER_REF, value);
