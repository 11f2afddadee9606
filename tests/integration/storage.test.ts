import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { imageSrcSet, resolveImageUrl } from '#common/images';
import { loadConfig } from '#server/config';
import { AppError } from '#server/lib/app-error';
import {
  createLocalStorage,
  createStorage,
  InvalidStorageKeyError,
  isValidStorageKey,
  StorageKeyExistsError,
  type Storage,
} from '#server/modules/storage/storage';
import { processAndStoreImage, type StoredImage } from '#server/modules/storage/storage.service';
import { startFakeS3, type FakeS3 } from '../fakes/s3-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

warnIfPostgresSkipped();
// The AWS SDK warns once that its 2027 releases need Node 22; the tests run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const KEY_PATTERN = /^products\/\d{13}-[a-z0-9]{8}-(\d+)\.webp$/;

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** A 600x400 JPEG whose EXIF says "rotate 90°": upright it is 400x600. */
async function rotatedJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret-camera-owner' } } })
    .toBuffer();
}

/** A PNG signature and a valid IHDR for width x height, then a token IDAT: tiny on disk, huge decoded. */
function hugePngHeader(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An image as the admin's browser uploads it: its bytes as the body, with its own type. */
function imageBody(bytes: Uint8Array, type: string): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}

async function upload(client: TestClient, body: Blob | FormData): Promise<Response> {
  return client.request('POST', '/api/uploads', { body });
}

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}

describe('image paths (shared with the browser)', () => {
  it('resolves relative keys against the public storage prefix and leaves URLs alone', () => {
    expect(resolveImageUrl('products/a-800.webp')).toBe('/uploads/products/a-800.webp');
    expect(resolveImageUrl('products/a-800.webp', 'https://cdn.example.com/shop/')).toBe(
      'https://cdn.example.com/shop/products/a-800.webp',
    );
    expect(resolveImageUrl('https://images.example.com/x.jpg')).toBe('https://images.example.com/x.jpg');
    expect(resolveImageUrl('http://images.example.com/x.jpg')).toBe('http://images.example.com/x.jpg');
    expect(resolveImageUrl('/demo/leggings.webp')).toBe('/demo/leggings.webp');
    expect(resolveImageUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('builds a srcset from the -<width>.webp naming', () => {
    expect(imageSrcSet('products/1-abcdefgh-800.webp')).toBe(
      '/uploads/products/1-abcdefgh-400.webp 400w, /uploads/products/1-abcdefgh-800.webp 800w',
    );
    expect(imageSrcSet('products/1-abcdefgh-800.webp', '/uploads', [400, 800, 1200])).toBe(
      '/uploads/products/1-abcdefgh-400.webp 400w, /uploads/products/1-abcdefgh-800.webp 800w, /uploads/products/1-abcdefgh-1200.webp 1200w',
    );
    expect(imageSrcSet('products/1-abcdefgh-250.webp', 'https://cdn.example.com')).toBe(
      'https://cdn.example.com/products/1-abcdefgh-250.webp 250w',
    );
    expect(imageSrcSet('https://images.example.com/x.jpg')).toBe('');
    expect(imageSrcSet('/demo/leggings.webp')).toBe('');
  });
});

describe('local storage driver', () => {
  let dir: string;
  let storage: Storage;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'shop-storage-'));
    storage = createLocalStorage(path.join(dir, 'uploads'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses keys with .., absolute paths or odd characters', async () => {
    for (const key of [
      '../secrets.json',
      'products/../../x',
      '/etc/passwd',
      'a b.webp',
      'a\\b',
      '.hidden',
      'a//b',
      '',
      'ü.webp',
    ]) {
      expect(isValidStorageKey(key), key).toBe(false);
      await expect(storage.put(key, new Uint8Array([1]), 'text/plain'), key).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      );
      expect(await storage.get(key), key).toBeNull();
      expect(await storage.exists(key), key).toBe(false);
    }
    expect(isValidStorageKey('products/1732240000000-k3j2h1ab-800.webp')).toBe(true);
  });

  it('writes atomically, reads, checks, deletes, and can refuse to overwrite', async () => {
    const key = 'products/sample-400.webp';
    expect(storage.publicUrl(key)).toBe('/uploads/products/sample-400.webp');
    await storage.put(key, new Uint8Array([1, 2, 3]), 'image/webp');
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.get(key)).toEqual({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/webp' });
    await storage.put(key, new Uint8Array([4]), 'image/webp');
    await expect(
      storage.put(key, new Uint8Array([5]), 'image/webp', { overwrite: false }),
    ).rejects.toBeInstanceOf(StorageKeyExistsError);
    expect((await storage.get(key))?.bytes).toEqual(new Uint8Array([4]));
    expect(readdirSync(path.join(dir, 'uploads', 'products'))).toEqual(['sample-400.webp']); // no temp files left
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
  });

  it('refuses files over the limit with the spec message, before looking at them', async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024 + 1);
    const err = await processAndStoreImage(storage, bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('PAYLOAD_TOO_LARGE');
    expect((err as AppError).message).toBe('File size must be less than 5MB');
  });
});

describe.each(BACKENDS)('image uploads (%s)', (backend) => {
  let t: TestApp;
  let admin: TestClient;
  let customer: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' } });
    await t.deps.auth.createUser({ email: 'admin@example.com', password: 'admin-password-1', role: 'admin' });
    admin = t.client();
    const signIn = await admin.post('/api/auth/sign-in/email', {
      email: 'admin@example.com',
      password: 'admin-password-1',
    });
    expect(signIn.status).toBe(200);
    customer = t.client();
    const signUp = await signUpAndIn(customer, {
      email: 'shopper@example.com',
      password: 'shopper-pass-1',
    });
    expect(signUp.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a text file named .png with 415', async () => {
    const text = new TextEncoder().encode('just some text, not a picture at all\n'.repeat(10));
    const res = await upload(admin, imageBody(text, 'image/png'));
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Please upload an image file',
    });
  });

  it('refuses other real file types (an SVG, a PDF) with 415', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    for (const [bytes, name] of [
      [svg, 'x.svg'],
      [pdf, 'x.png'],
    ] as const) {
      const res = await upload(admin, imageBody(bytes, 'image/png'));
      expect(res.status, name).toBe(415);
    }
  });

  it('answers 415, not 500, for corrupt bytes behind an image signature', async () => {
    const good = await png(64, 64);
    const corrupt = new Uint8Array(good.length);
    corrupt.set(good.subarray(0, 24)); // signature and the start of IHDR, then zeros
    const res = await upload(admin, imageBody(corrupt, 'image/png'));
    expect(res.status).toBe(415);
    expect((await errorOf(res)).message).toBe('Please upload an image file');

    const truncatedJpeg = (await rotatedJpeg()).subarray(0, 300);
    const res2 = await upload(admin, imageBody(truncatedJpeg, 'image/jpeg'));
    expect(res2.status).toBe(415);
  });

  it('refuses a small file that claims enormous dimensions (pixel bomb) without decoding it', async () => {
    const res = await upload(admin, imageBody(hugePngHeader(30_000, 30_000), 'image/png'));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toBe('Image dimensions are too large');
  });

  it('answers 413 in the error shape for a 6 MB upload', async () => {
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(await png(8, 8));
    const res = await upload(admin, imageBody(big, 'image/png'));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('stores a PNG as WebP variants served immutable from /uploads', async () => {
    const res = await upload(admin, imageBody(await png(1500, 1000), 'image/png'));
    expect(res.status, await res.clone().text()).toBe(201);
    const image = (await res.json()) as StoredImage;
    expect(image.widths).toEqual([400, 800, 1200]);
    expect(image.path).toMatch(KEY_PATTERN);
    expect(KEY_PATTERN.exec(image.path)?.[1]).toBe('800');
    expect(image.url).toBe(`/uploads/${image.path}`);
    expect(image.srcset).toBe(imageSrcSet(image.path, '/uploads', image.widths));

    for (const width of image.widths) {
      const url = `/uploads/${image.path.replace(/-800\.webp$/, `-${width}.webp`)}`;
      const served = await t.app.request(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
    }
  });

  it('rotates a JPEG by its EXIF orientation, strips metadata and never upscales', async () => {
    const res = await upload(admin, imageBody(await rotatedJpeg(), 'image/jpeg'));
    expect(res.status, await res.clone().text()).toBe(201);
    const image = (await res.json()) as StoredImage;
    expect(image.widths).toEqual([400]);
    expect(image.path).toMatch(/-400\.webp$/);
    const stored = await t.deps.storage.get(image.path);
    const meta = await sharp(Buffer.from(stored!.bytes)).metadata();
    expect([meta.width, meta.height]).toEqual([400, 600]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(Buffer.from(stored!.bytes).includes('secret-camera-owner')).toBe(false);
  });

  it('keeps a small GIF at its own width as the one variant', async () => {
    const gif = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#c33' } })
      .gif()
      .toBuffer();
    const res = await upload(admin, imageBody(gif, 'image/gif'));
    expect(res.status).toBe(201);
    const image = (await res.json()) as StoredImage;
    expect(image.widths).toEqual([120]);
    expect(image.path).toMatch(/-120\.webp$/);
    expect(image.srcset).toBe(`/uploads/${image.path} 120w`);
  });

  it('requires an admin: 401 anonymous, 403 customer', async () => {
    const body = () => imageBody(new Uint8Array([1, 2, 3]), 'image/png');
    const anonymous = await upload(t.client(), body());
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('UNAUTHENTICATED');
    const asCustomer = await upload(customer, body());
    expect(asCustomer.status).toBe(403);
    expect((await errorOf(asCustomer)).code).toBe('FORBIDDEN');
  });

  it('answers 400 for an empty body and 415 for a body not declared as an image', async () => {
    const empty = await upload(admin, imageBody(new Uint8Array(0), 'image/png'));
    expect(empty.status).toBe(400);
    const emptyError = await errorOf(empty);
    expect(emptyError.code).toBe('VALIDATION_FAILED');
    expect(emptyError.fields?.file).toBeTruthy();

    // A multipart form (what a cross-site form can post) is refused before it reaches the route.
    const one = await png(50, 50);
    const multipart = new FormData();
    multipart.append('file', imageBody(one, 'image/png'), 'a.png');
    const form = await upload(admin, multipart);
    expect(form.status).toBe(415);
    expect((await errorOf(form)).code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const json = await admin.post('/api/uploads', { file: 'data:image/png;base64,AAAA' });
    expect(json.status).toBe(415);
    expect((await errorOf(json)).fields?.file).toBeTruthy();

    const octets = await upload(admin, imageBody(one, 'application/octet-stream'));
    expect(octets.status).toBe(415);
  });

  it('answers 404 JSON for missing objects and anything that tries to leave the uploads folder', async () => {
    writeFileSync(path.join(t.dataDir, 'uploads-neighbour.txt'), 'not for the web');
    mkdirSync(path.join(t.dataDir, 'uploads'), { recursive: true });
    for (const url of [
      '/uploads/products/missing-800.webp',
      '/uploads/..%2fsecrets.json',
      '/uploads/%2e%2e%2fsecrets.json',
      '/uploads/products/..%2f..%2fsecrets.json',
      '/uploads/%2fetc%2fpasswd',
      '/uploads/.tmp-0123',
      '/uploads/',
    ]) {
      const res = await t.app.request(url);
      expect(res.status, url).toBe(404);
      expect((await errorOf(res)).code, url).toBe('NOT_FOUND');
    }
    // The URL parser resolves a literal `..` before routing: it never reaches /uploads (the web
    // app's 404 page answers it).
    const literal = await t.app.request('/uploads/../secrets.json');
    expect(literal.status).toBe(404);
    expect(await literal.text()).not.toContain('authSecret');
  });
});

describe('S3 storage driver (fake S3 server)', () => {
  let s3: FakeS3;
  let dataDir: string;
  let storage: Storage;

  beforeAll(async () => {
    s3 = await startFakeS3({ buckets: ['shop-images'] });
    dataDir = mkdtempSync(path.join(tmpdir(), 'shop-s3-'));
    storage = createStorage(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: s3.region,
        S3_BUCKET: 'shop-images',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_PUBLIC_URL: 'https://cdn.example.com/shop-images/',
      }),
    );
  });
  afterAll(async () => {
    await s3?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('puts, checks, gets and deletes objects through the real S3 client', async () => {
    expect(storage.driver).toBe('s3');
    const key = 'products/1732240000000-abcdefgh-400.webp';
    expect(storage.publicUrl(key)).toBe(`https://cdn.example.com/shop-images/${key}`);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();

    const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 5]);
    await storage.put(key, bytes, 'image/webp', { cacheControl: IMMUTABLE });
    const put = s3.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe(`/shop-images/${key}?x-id=PutObject`);
    const object = s3.buckets.get('shop-images')?.get(key);
    expect(object?.contentType).toBe('image/webp');
    expect(object?.cacheControl).toBe(IMMUTABLE);

    expect(await storage.exists(key)).toBe(true);
    expect(await storage.get(key)).toEqual({ bytes, contentType: 'image/webp' });
    await expect(
      storage.put(key, new Uint8Array([9]), 'image/webp', { overwrite: false }),
    ).rejects.toBeInstanceOf(StorageKeyExistsError);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // deleting a missing key is fine
    await expect(storage.put('../escape', bytes, 'image/webp')).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    );
  });

  it('stores processed images with their content type and cache header', async () => {
    const image = await processAndStoreImage(storage, await png(900, 600));
    expect(image.widths).toEqual([400, 800]);
    expect(image.url).toBe(`https://cdn.example.com/shop-images/${image.path}`);
    const bucket = s3.buckets.get('shop-images')!;
    for (const width of image.widths) {
      const key = image.path.replace(/-800\.webp$/, `-${width}.webp`);
      expect(bucket.get(key)?.contentType).toBe('image/webp');
      expect(bucket.get(key)?.cacheControl).toBe(IMMUTABLE);
    }
  });

  it('decodes aws-chunked uploads with trailing checksums, as S3 does (fake self-check)', async () => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const parts = [Buffer.from('hello '), Buffer.from('streamed '), Buffer.from('world')];
      await client.send(
        new PutObjectCommand({
          Bucket: 'shop-images',
          Key: 'streamed.txt',
          Body: Readable.from(parts),
          ContentLength: 20,
        }),
      );
      const put = s3.requests.filter((r) => r.method === 'PUT').at(-1);
      expect(put?.headers['content-encoding']).toContain('aws-chunked');
      expect(s3.buckets.get('shop-images')?.get('streamed.txt')?.bytes.toString()).toBe(
        'hello streamed world',
      );
    } finally {
      client.destroy();
    }
  });

  it('surfaces S3 errors such as a wrong access key', async () => {
    const wrong = createStorage(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: 'shop-images',
        S3_ACCESS_KEY_ID: 'SOMEONEELSE',
        S3_SECRET_ACCESS_KEY: 'nope',
      }),
    );
    await expect(wrong.put('products/x-400.webp', new Uint8Array([1]), 'image/webp')).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
    });
  });

  describe('with the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        backend: 'pglite',
        env: {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: 'shop-images',
          S3_ACCESS_KEY_ID: s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('redirects /uploads/<key> to the public S3 URL', async () => {
      const res = await t.app.request('/uploads/products/1732240000000-abcdefgh-800.webp');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(
        `${s3.endpoint}/shop-images/products/1732240000000-abcdefgh-800.webp`,
      );
      expect((await t.app.request('/uploads/..%2fx')).status).toBe(404);
    });
  });
});
