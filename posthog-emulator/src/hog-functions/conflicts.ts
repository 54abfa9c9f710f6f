// The two 409s of a hog function's review cycle (products/cdp/backend/api/hog_function.py at
// 0019077): StaleHogFunctionUpdateError and DraftExistsError, APIExceptions with their default
// detail (exceptions_hog types an APIException that is no ValidationError `server_error`, as for
// batch exports' too_many_concurrent_backfills).
import { ApiError } from '../http/api-error.ts';

/** StaleHogFunctionUpdateError: a publish token, or a PATCH's base_updated_at, behind what is stored. */
export const staleUpdate = () =>
  new ApiError(
    409,
    'server_error',
    'stale_update',
    'This function changed since you previewed the publish, either the draft or the live config. Preview again to see where things stand now.',
  );

/** DraftExistsError: restoring a revision over a staged draft without overwrite. */
export const draftExists = () =>
  new ApiError(
    409,
    'server_error',
    'draft_exists',
    'This function has an open draft. Publish or discard it first, or pass overwrite=true to replace it with the restored revision.',
  );
