import { Hono, type Handler } from 'hono';
import type { ErrorBody } from '#common/errors';
import type { AppDeps } from '#server/deps';
import { AppError } from '#server/lib/app-error';
import { requireAdmin } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { isValidStorageKey } from './storage';
import { IMAGE_CACHE_CONTROL, processAndStoreImage } from './storage.service';

const FILE_FIELD = 'file';

/** POST /api/uploads: one image in the multipart field `file`, admin only -> 201 StoredImage. */
export function storageRoutes(deps: AppDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/', requireAdmin, async (c) => {
    const file = await readSingleFile(c.req.raw);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const image = await processAndStoreImage(deps.storage, bytes, { maxBytes: deps.config.uploadLimitBytes });
    return c.json(image, 201);
  });

  return router;
}

function fileError(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [FILE_FIELD]: message });
}

/** The one File of a multipart/form-data body, in the field `file`; 400 for anything else. */
async function readSingleFile(request: Request): Promise<File> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    throw fileError('Send the image as multipart/form-data');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw fileError('The upload could not be read');
  }
  const files = form.getAll(FILE_FIELD).filter((v): v is File => typeof v !== 'string');
  let otherFiles = 0;
  for (const [name, value] of form.entries())
    if (name !== FILE_FIELD && typeof value !== 'string') otherFiles++;
  if (files.length === 0) throw fileError('Please choose an image to upload');
  if (files.length > 1 || otherFiles > 0) throw fileError('Upload one file at a time');
  return files[0]!;
}

/**
 * GET /uploads/*: objects of the local storage driver, immutable (keys are never reused), with
 * their content type and `nosniff`; 404 JSON for anything that is not a stored key. With the S3
 * driver the objects live elsewhere: 302 to their public URL.
 */
export function uploadsStatic(deps: AppDeps): Handler<AppEnv> {
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
