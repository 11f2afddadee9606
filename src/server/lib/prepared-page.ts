import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  acceptsEncoding,
  chooseEncoding,
  compress,
  type BodyEncoding,
  type Bytes,
  type CompressedEncoding,
} from './prepared-body';

/**
 * A document made once and served many times with a fresh token in it on every response (a page's
 * CSP nonce). It is made with a placeholder where the token goes; each response gets the
 * placeholder replaced by its own token. Its compressed forms are still made once (on first
 * demand, in libuv's thread pool), each response adding only its token:
 * - gzip: every part between placeholders is compressed on its own into raw deflate blocks that end
 *   on a byte boundary and refer to nothing before them, so the parts and the tokens (as stored
 *   blocks) follow one another in one stream, ended by a final block and the trailer (CRC-32 and
 *   length of the document as sent). The whole document is compressed, wherever the tokens are.
 * - brotli: everything before the first placeholder is compressed into a stream flushed to a byte
 *   boundary and left open; the rest of the document, tokens included, follows as uncompressed
 *   meta-blocks. Small only when the first token comes late (`brotliRestBytes`): a page whose
 *   first token is early (a nonce in its head) is better sent as gzip (`encodingFor`).
 * Both are plain, valid streams any decoder reads.
 */
export class PreparedPage {
  /** The hash of the document as made (with the placeholder): equal documents, equal hash. */
  readonly hash: string;
  /** The length of the document as made, close to what each response sends. */
  readonly size: number;
  /** How much of the document its brotli form sends uncompressed (from the first placeholder on). */
  readonly brotliRestBytes: number;
  /** The document split at every placeholder. */
  readonly #parts: Bytes[];
  readonly #forms = new Map<CompressedEncoding, Promise<Bytes[]>>();
  readonly #ready = new Map<CompressedEncoding, Bytes[]>();

  constructor(html: string, placeholder: string) {
    const encoder = new TextEncoder();
    this.#parts = html.split(placeholder).map((part) => encoder.encode(part));
    this.hash = createHash('sha256').update(html).digest('base64url').slice(0, 27);
    this.size = encoder.encode(html).length;
    this.brotliRestBytes = this.size - this.#parts[0]!.length;
  }

  /**
   * The encoding to send for an Accept-Encoding header: chooseEncoding's, except gzip instead of
   * brotli when brotli would send more than a little of the document uncompressed.
   */
  encodingFor(acceptEncoding: string | undefined): BodyEncoding {
    const encoding = chooseEncoding(acceptEncoding, this.size);
    if (encoding !== 'br' || this.brotliRestBytes <= BROTLI_REST_MAX) return encoding;
    return acceptsEncoding(acceptEncoding, 'gzip') ? 'gzip' : 'br';
  }

  /** The document with `token` in place of every placeholder. */
  bytes(token: string): Bytes {
    return concat(this.#withTokens(this.#parts, new TextEncoder().encode(token)));
  }

  /**
   * The document with `token` in it, in `encoding`, when its compressed parts are ready; undefined
   * while they are being made (started by this call), so that no response waits for them.
   */
  encoded(encoding: CompressedEncoding, token: string): Bytes | undefined {
    const ready = this.#ready.get(encoding);
    if (!ready) {
      void this.#prepare(encoding);
      return undefined;
    }
    const tokenBytes = new TextEncoder().encode(token);
    if (encoding === 'br') {
      const rest = concat(this.#withTokens(this.#parts, tokenBytes).slice(1));
      return concat([ready[0]!, ...brotliUncompressed(rest), BROTLI_LAST]);
    }
    const stored = deflateStored(tokenBytes);
    const blocks: Bytes[] = [GZIP_HEADER];
    let crc = 0;
    ready.forEach((part, i) => {
      if (i > 0) {
        blocks.push(...stored);
        if (tokenBytes.length > 0) crc = crc32(tokenBytes, crc);
      }
      blocks.push(part);
      // (crc32 of no bytes answers 0, not the value carried on.)
      if (this.#parts[i]!.length > 0) crc = crc32(this.#parts[i]!, crc);
    });
    let length = 0;
    for (const part of this.#parts) length += part.length;
    length += (this.#parts.length - 1) * tokenBytes.length;
    const trailer = new Uint8Array(8);
    const view = new DataView(trailer.buffer);
    view.setUint32(0, crc >>> 0, true);
    view.setUint32(4, length >>> 0, true);
    return concat([...blocks, DEFLATE_LAST, trailer]);
  }

  /** Compresses the parts for `encoding` (once; a failure is tried again on the next demand). */
  #prepare(encoding: CompressedEncoding): Promise<Bytes[]> {
    let form = this.#forms.get(encoding);
    if (!form) {
      form =
        encoding === 'br'
          ? compress(this.#parts[0]!, 'br', true).then((head) => [head])
          : Promise.all(this.#parts.map((part) => compress(part, 'gzip', true)));
      form.then(
        (parts) => this.#ready.set(encoding, parts),
        () => this.#forms.delete(encoding),
      );
      this.#forms.set(encoding, form);
    }
    return form;
  }

  /** Waits until both compressed forms are made (tests). */
  async prepared(): Promise<void> {
    await Promise.all([this.#prepare('br'), this.#prepare('gzip')]);
  }

  #withTokens(parts: Bytes[], token: Bytes): Bytes[] {
    return parts.flatMap((part, i) => (i === 0 ? [part] : [token, part]));
  }
}

/** Brotli's uncompressed rest above which a client that takes gzip gets gzip (encodingFor). */
const BROTLI_REST_MAX = 4096;

/** gzip's member header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final stored block: ends a deflate stream that stands on a byte boundary. */
const DEFLATE_LAST = new Uint8Array([0x01, 0x00, 0x00, 0xff, 0xff]);
/** An empty last meta-block (ISLAST, ISLASTEMPTY): ends a brotli stream. */
const BROTLI_LAST = new Uint8Array([0x03]);
const MAX_BLOCK = 0xffff;

/** `bytes` as non-final deflate stored blocks (RFC 1951 3.2.4), from a byte boundary. */
function deflateStored(bytes: Bytes): Bytes[] {
  const blocks: Bytes[] = [];
  for (let at = 0; at < bytes.length; at += MAX_BLOCK) {
    const chunk = bytes.subarray(at, at + MAX_BLOCK);
    const header = new Uint8Array([
      0x00,
      chunk.length & 0xff,
      chunk.length >> 8,
      ~chunk.length & 0xff,
      (~chunk.length >> 8) & 0xff,
    ]);
    blocks.push(header, chunk);
  }
  return blocks;
}

/**
 * `bytes` as brotli uncompressed meta-blocks (RFC 7932 9.2) of at most 64 KiB, from a byte
 * boundary: ISLAST 0, MNIBBLES 4 (0), MLEN-1 in 16 bits, ISUNCOMPRESSED 1, padded to 3 bytes.
 */
function brotliUncompressed(bytes: Bytes): Bytes[] {
  const blocks: Bytes[] = [];
  for (let at = 0; at < bytes.length; at += MAX_BLOCK + 1) {
    const chunk = bytes.subarray(at, at + MAX_BLOCK + 1);
    const bits = ((chunk.length - 1) << 3) | (1 << 19);
    blocks.push(new Uint8Array([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]), chunk);
  }
  return blocks;
}

function concat(parts: Bytes[]): Bytes {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
