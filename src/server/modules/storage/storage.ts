import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { Config } from '#server/config';

/**
 * Object storage behind one interface. Keys are relative paths such as
 * `products/1732240000000-k3j2h1ab-800.webp`; the public URL of a key is `publicUrl(key)`
 * (local driver: `/uploads/<key>`; S3: `${S3_PUBLIC_URL}/<key>`).
 */
export interface Storage {
  readonly driver: 'local' | 's3';
  /**
   * Stores bytes under key. With `overwrite: false` an existing key is left alone and
   * StorageKeyExistsError is thrown (S3: a conditional `If-None-Match: *` put).
   */
  put(
    key: string,
    bytes: Uint8Array,
    contentType: string,
    options?: { cacheControl?: string; overwrite?: boolean },
  ): Promise<void>;
  /** Bytes and content type, or null when the key does not exist (or can not be a key). */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the key; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
  /** What publicUrl puts before a key: `/uploads` (local) or the bucket's public URL (S3). */
  readonly publicBase: string;
}

export class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError';
  constructor(key: string) {
    super(`invalid storage key: ${JSON.stringify(key.length > 200 ? `${key.slice(0, 200)}...` : key)}`);
  }
}

export class StorageKeyExistsError extends Error {
  override name = 'StorageKeyExistsError';
  constructor(readonly key: string) {
    super(`storage key already exists: ${key}`);
  }
}

const MAX_KEY_LENGTH = 512;
/** Path segments of letters, digits, `-`, `_` and `.`, never starting with a dot (no `..`, no hidden files). */
const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** A relative key such as `products/a-800.webp`: no `..`, no absolute path, no odd characters. */
export function isValidStorageKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key) && !key.includes('..');
}

function assertKey(key: string): void {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key);
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Content type of a key by its extension (the local driver keeps no metadata). */
export function contentTypeForKey(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

export function createStorage(config: Config): Storage {
  const storage = config.storage;
  return storage.driver === 's3' ? createS3Storage(storage) : createLocalStorage(storage.dir);
}

// ---------------------------------------------------------------------------------------------
// Local disk

export function createLocalStorage(dir: string): Storage {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertKey(key);
    const file = path.resolve(root, key);
    // Belt and braces: the key pattern already keeps us under root.
    if (!file.startsWith(root + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  };

  return {
    driver: 'local',

    async put(key, bytes, _contentType, options = {}) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write a temporary file (a dot name can never be a key, so it is never served), then move
      // it into place in one step: readers see the old bytes or the new, never half a file.
      const tmp = path.join(path.dirname(file), `.tmp-${randomBytes(8).toString('hex')}`);
      await writeFile(tmp, bytes, { flag: 'wx', mode: 0o644 });
      try {
        if (options.overwrite === false) {
          // link() is atomic too, and fails when the key exists.
          await link(tmp, file).catch((err: unknown) => {
            throw isErrno(err, 'EEXIST') ? new StorageKeyExistsError(key) : err;
          });
        } else {
          await rename(tmp, file);
        }
      } finally {
        await rm(tmp, { force: true });
      }
    },

    async get(key) {
      if (!isValidStorageKey(key)) return null;
      try {
        const bytes = await readFile(fileOf(key));
        return {
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: contentTypeForKey(key),
        };
      } catch (err) {
        if (isErrno(err, 'ENOENT') || isErrno(err, 'EISDIR') || isErrno(err, 'ENOTDIR')) return null;
        throw err;
      }
    },

    async exists(key) {
      if (!isValidStorageKey(key)) return false;
      try {
        return (await stat(fileOf(key))).isFile();
      } catch (err) {
        if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return false;
        throw err;
      }
    },

    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
    },

    publicUrl(key) {
      assertKey(key);
      return `/uploads/${key}`;
    },
    publicBase: '/uploads',
  };
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

// ---------------------------------------------------------------------------------------------
// S3-compatible

type S3Settings = Extract<Config['storage'], { driver: 's3' }>;

export function createS3Storage(settings: S3Settings): Storage {
  // The SDK (about a quarter of a CPU second to import) loads with the first object call, so a
  // shop on local disk, the default, never loads it and one on S3 starts as fast.
  let loading: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const s3 = () =>
    (loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        // Without keys the SDK's default chain applies (environment, instance role, ...).
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
      }),
    })));
  const Bucket = settings.bucket;
  const base = settings.publicUrl.replace(/\/+$/, '');

  return {
    driver: 's3',

    async put(key, bytes, contentType, options = {}) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.byteLength,
            ...(options.cacheControl ? { CacheControl: options.cacheControl } : {}),
            ...(options.overwrite === false ? { IfNoneMatch: '*' } : {}),
          }),
        );
      } catch (err) {
        if (options.overwrite === false && s3Status(err) === 412) throw new StorageKeyExistsError(key);
        throw err;
      }
    },

    async get(key) {
      if (!isValidStorageKey(key)) return null;
      const { sdk, client } = await s3();
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) return null;
        const bytes = await res.Body.transformToByteArray();
        return { bytes, contentType: res.ContentType ?? contentTypeForKey(key) };
      } catch (err) {
        if (s3Status(err) === 404) return null;
        throw err;
      }
    },

    async exists(key) {
      if (!isValidStorageKey(key)) return false;
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (s3Status(err) === 404) return false;
        throw err;
      }
    },

    async delete(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },

    publicUrl(key) {
      assertKey(key);
      return `${base}/${key}`;
    },
    publicBase: base,
  };
}

/** The HTTP status of an S3 error (the SDK's S3ServiceException, or any error carrying its metadata). */
function s3Status(err: unknown): number | undefined {
  const meta = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return meta?.httpStatusCode;
}
