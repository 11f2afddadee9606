import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { compress, type Bytes, type CompressedEncoding } from './prepared-body';

/**
 * A document made once and served many times with a fresh token in it on every response (a page's
 * CSP nonce). It is made with a placeholder where the token goes; each response gets the
 * placeholder replaced by its own token. Its brotli and gzip forms are still compressed once:
 * everything before the first placeholder is compressed (on first demand, in libuv's thread pool)
 * into a stream flushed to a byte boundary and left open, and each response appends the rest of the
 * document, token included, as stored blocks (a brotli uncompressed meta-block, deflate stored
 * blocks with the gzip trailer's CRC-32 carried on from the kept part's), then ends the stream.
 * Both are plain, valid streams any decoder reads. The rest is small when the token comes late (a
 * page's nonce is on its loader script, at the end of the document).
 */
export class PreparedPage {
  /** The hash of the document as made (with the placeholder): equal documents, equal hash. */
  readonly hash: string;
  /** The length of the document as made, close to what each response sends. */
  readonly size: number;
  readonly #head: Bytes;
  /** The document from the first placeholder on, split at every placeholder. */
  readonly #rest: string[];
  readonly #forms = new Map<CompressedEncoding, Promise<Bytes>>();
  readonly #ready = new Map<CompressedEncoding, Bytes>();
  #headCrc: number | undefined;

  constructor(html: string, placeholder: string) {
    const encoder = new TextEncoder();
    const at = html.indexOf(placeholder);
    this.#head = encoder.encode(at < 0 ? html : html.slice(0, at));
    this.#rest = at < 0 ? [] : html.slice(at).split(placeholder);
    this.hash = createHash('sha256').update(html).digest('base64url').slice(0, 27);
    this.size = encoder.encode(html).length;
  }

  /** The document with `token` in place of every placeholder. */
  bytes(token: string): Bytes {
    return concat([this.#head, this.#restWith(token)]);
  }

  /**
   * The document with `token` in it, in `encoding`, when its compressed part is ready; undefined
   * while it is being made (started by this call), so that no response waits for it.
   */
  encoded(encoding: CompressedEncoding, token: string): Bytes | undefined {
    const head = this.#ready.get(encoding);
    if (!head) {
      void this.#prepare(encoding);
      return undefined;
    }
    const rest = this.#restWith(token);
    if (encoding === 'br') return concat([head, ...brotliUncompressed(rest), BROTLI_LAST]);
    this.#headCrc ??= crc32(this.#head);
    const trailer = new Uint8Array(8);
    const view = new DataView(trailer.buffer);
    // crc32 of an empty TextEncoder result answers 0, not the value carried on.
    view.setUint32(0, rest.length > 0 ? crc32(rest, this.#headCrc) : this.#headCrc, true);
    view.setUint32(4, (this.#head.length + rest.length) >>> 0, true);
    return concat([GZIP_HEADER, head, ...deflateStored(rest), DEFLATE_LAST, trailer]);
  }

  /** Compresses the kept part in `encoding` (once; a failure is tried again on the next demand). */
  #prepare(encoding: CompressedEncoding): Promise<Bytes> {
    let form = this.#forms.get(encoding);
    if (!form) {
      form = compress(this.#head, encoding, true);
      form.then(
        (bytes) => this.#ready.set(encoding, bytes),
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

  #restWith(token: string): Bytes {
    return new TextEncoder().encode(this.#rest.join(token));
  }
}

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
