import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/**
 * A small S3 stand-in on 127.0.0.1 for tests: PutObject, GetObject, HeadObject and DeleteObject
 * with path-style addressing (`/<bucket>/<key>`), speaking the S3 REST wire format well enough for
 * the real @aws-sdk/client-s3: XML errors (NoSuchKey, NoSuchBucket, PreconditionFailed, ...),
 * ETag, Content-Type, Cache-Control, `If-None-Match: *` conditional puts, `aws-chunked` bodies
 * with trailing checksums, Content-MD5 and x-amz-checksum-crc32 checks. Signatures are not
 * verified, but the Authorization header must be a SigV4 one naming the expected access key.
 */
export interface FakeS3Object {
  bytes: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  etag: string;
  lastModified: Date;
}

export interface FakeS3Request {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket -> key -> object */
  buckets: Map<string, Map<string, FakeS3Object>>;
  requests: FakeS3Request[];
  close(): Promise<void>;
}

export interface StartFakeS3Options {
  buckets?: string[];
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export async function startFakeS3(options: StartFakeS3Options = {}): Promise<FakeS3> {
  const region = options.region ?? 'us-east-1';
  const accessKeyId = options.accessKeyId ?? 'FAKEACCESSKEY';
  const secretAccessKey = options.secretAccessKey ?? 'fake-secret-access-key';
  const buckets = new Map<string, Map<string, FakeS3Object>>(
    (options.buckets ?? ['shop']).map((b) => [b, new Map()]),
  );
  const requests: FakeS3Request[] = [];

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendError(res, 500, 'InternalError', err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname + url.search, headers: { ...req.headers } });
    const body = await readBody(req);

    const auth = req.headers.authorization ?? '';
    const credential =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!credential) return sendError(res, 403, 'AccessDenied', 'Access Denied');
    if (credential[1] !== accessKeyId) {
      return sendError(
        res,
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    }
    if (!req.headers['x-amz-date'] || !req.headers['x-amz-content-sha256']) {
      return sendError(res, 400, 'InvalidRequest', 'Missing x-amz-date or x-amz-content-sha256');
    }

    // Path style: /<bucket>/<key>; each segment is percent-encoded by the client.
    const [, rawBucket = '', ...rawKey] = url.pathname.split('/');
    const bucketName = decodeURIComponent(rawBucket);
    const key = rawKey.map((s) => decodeURIComponent(s)).join('/');
    const bucket = buckets.get(bucketName);
    if (!bucket)
      return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', {
        BucketName: bucketName,
      });
    if (key === '' || [...url.searchParams.keys()].some((k) => k !== 'x-id')) {
      return sendError(
        res,
        501,
        'NotImplemented',
        'Only PutObject, GetObject, HeadObject and DeleteObject are implemented',
      );
    }

    switch (method) {
      case 'PUT':
        return putObject(req, res, bucket, key, body);
      case 'GET':
      case 'HEAD': {
        const object = bucket.get(key);
        if (!object) {
          if (method === 'HEAD') return void res.writeHead(404, { 'x-amz-request-id': requestId() }).end();
          return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
        }
        res.writeHead(200, {
          'Content-Type': object.contentType,
          'Content-Length': String(object.bytes.byteLength),
          ETag: object.etag,
          'Last-Modified': object.lastModified.toUTCString(),
          'Accept-Ranges': 'bytes',
          'x-amz-request-id': requestId(),
          ...(object.cacheControl ? { 'Cache-Control': object.cacheControl } : {}),
        });
        return void res.end(method === 'HEAD' ? undefined : object.bytes);
      }
      case 'DELETE':
        bucket.delete(key);
        return void res.writeHead(204, { 'x-amz-request-id': requestId() }).end();
      default:
        return sendError(
          res,
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        );
    }
  }

  function putObject(
    req: IncomingMessage,
    res: ServerResponse,
    bucket: Map<string, FakeS3Object>,
    key: string,
    raw: Buffer,
  ) {
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };
    const contentSha = header('x-amz-content-sha256') ?? '';
    const encodings = (header('content-encoding') ?? '').split(',').map((e) => e.trim().toLowerCase());
    let bytes = raw;
    let trailers: Record<string, string> = {};
    if (contentSha.startsWith('STREAMING-') || encodings.includes('aws-chunked')) {
      const decoded = decodeAwsChunked(raw);
      if (!decoded)
        return sendError(res, 400, 'IncompleteBody', 'The request body could not be decoded as aws-chunked');
      bytes = decoded.bytes;
      trailers = decoded.trailers;
      const declared = header('x-amz-decoded-content-length');
      if (declared !== undefined && Number(declared) !== bytes.byteLength) {
        return sendError(
          res,
          400,
          'IncompleteBody',
          'You did not provide the number of bytes specified by the Content-Length HTTP header',
        );
      }
    } else if (/^[0-9a-f]{64}$/.test(contentSha) && sha256Hex(bytes) !== contentSha) {
      return sendError(
        res,
        400,
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
      );
    }
    const md5 = header('content-md5');
    if (md5 && createHash('md5').update(bytes).digest('base64') !== md5) {
      return sendError(
        res,
        400,
        'BadDigest',
        'The Content-MD5 you specified did not match what we received.',
      );
    }
    const crc = header('x-amz-checksum-crc32') ?? trailers['x-amz-checksum-crc32'];
    if (crc && crc32Base64(bytes) !== crc) {
      return sendError(
        res,
        400,
        'BadDigest',
        'The CRC32 you specified did not match the calculated checksum.',
      );
    }
    if (header('if-none-match') === '*' && bucket.has(key)) {
      return sendError(
        res,
        412,
        'PreconditionFailed',
        'At least one of the pre-conditions you specified did not hold',
        {
          Condition: 'If-None-Match',
        },
      );
    }
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    bucket.set(key, {
      bytes,
      contentType: header('content-type') ?? 'binary/octet-stream',
      cacheControl: header('cache-control'),
      etag,
      lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
    });
    res.writeHead(200, {
      ETag: etag,
      'x-amz-request-id': requestId(),
      ...(crc ? { 'x-amz-checksum-crc32': crc } : {}),
    });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    region,
    accessKeyId,
    secretAccessKey,
    buckets,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `<hex size>[;chunk-signature=...]\r\n<data>\r\n` ... `0\r\n` then trailer lines and `\r\n`. */
function decodeAwsChunked(raw: Buffer): { bytes: Buffer; trailers: Record<string, string> } | null {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', pos);
    if (eol < 0) return null;
    const size = Number.parseInt(raw.subarray(pos, eol).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size < 0) return null;
    pos = eol + 2;
    if (size === 0) break;
    if (pos + size + 2 > raw.length) return null;
    parts.push(raw.subarray(pos, pos + size));
    pos += size;
    if (raw.subarray(pos, pos + 2).toString('latin1') !== '\r\n') return null;
    pos += 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of raw.subarray(pos).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { bytes: Buffer.concat(parts), trailers };
}

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
) {
  const id = requestId();
  const fields = Object.entries(extra)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>${fields}<RequestId>${id}</RequestId></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'x-amz-request-id': id });
  res.end(xml);
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function crc32Base64(bytes: Buffer): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(bytes) >>> 0);
  return out.toString('base64');
}

function requestId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}
