import { Hono, type Handler } from 'hono';
import type { ErrorBody } from '#common/errors';
import { AppError } from '#server/lib/app-error';
import { requireAdmin } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { mediaTypeOf } from '#server/lib/csrf';
import { isValidStorageKey } from './storage';
import { IMAGE_CACHE_CONTROL, processAndStoreImage } from './storage.service';
import type { Config } from '#server/config';
import type { Storage } from './storage';

/** What these routes use of the app's services (deps.ts builds them). */
export interface StorageRoutesDeps {
  config: Config;
  storage: Storage;
}

const FILE_FIELD = 'file';

/**
 * POST /api/uploads: one image, its bytes as the body with its own `Content-Type: image/…`, admin
 * only -> 201 StoredImage. Not multipart: a cross-site form can post multipart, never image/*.
 */
export function storageRoutes(deps: StorageRoutesDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/', requireAdmin, async (c) => {
    const bytes = await readImageBody(c.req.raw);
    const image = await processAndStoreImage(deps.storage, bytes, { maxBytes: deps.config.uploadLimitBytes });
    return c.json(image, 201);
  });

  return router;
}

function fileError(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [FILE_FIELD]: message });
}

/** The raw image body; 415 unless declared as an image (the service checks the bytes), 400 if empty. */
async function readImageBody(request: Request): Promise<Uint8Array> {
  if (!mediaTypeOf(request.headers.get('content-type') ?? undefined).startsWith('image/')) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      "Send the image's bytes as the body, with its type (Content-Type: image/png, image/jpeg, …)",
      { [FILE_FIELD]: 'Please upload an image file' },
    );
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength === 0) throw fileError('Please choose an image to upload');
  return bytes;
}

/**
 * GET /uploads/*: objects of the local storage driver, immutable (keys are never reused), with
 * their content type and `nosniff`; 404 JSON for anything that is not a stored key. With the S3
 * driver the objects live elsewhere: 302 to their public URL.
 */
export function uploadsStatic(deps: StorageRoutesDeps): Handler<AppEnv> {
  const notFound = (): Response => {
    const body: ErrorBody = { error: { code: 'NOT_FOUND', message: 'Not found' } };
    return Response.json(body, { status: 404, headers: { 'X-Content-Type-Options': 'nosniff' } });
  };

  return async (c) => {
    const key = keyFromUrl(c.req.url);
    if (key === null || !isValidStorageKey(key)) return notFound();
    if (deps.storage.driver === 's3') return c.redirect(deps.storage.publicUrl(key), 302);
    const object = await deps.storage.get(key);
    if (!object) return notFound();
    return c.body(object.bytes.slice().buffer, 200, {
      'Content-Type': object.contentType,
      'Content-Length': String(object.bytes.byteLength),
      'Cache-Control': IMAGE_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
    });
  };
}

/** The key after `/uploads/`, percent-decoded once (so `..%2f` is seen and refused); null if malformed. */
function keyFromUrl(url: string): string | null {
  const pathname = new URL(url).pathname;
  const prefix = '/uploads/';
  if (!pathname.startsWith(prefix)) return null;
  try {
    return decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return null;
  }
}
