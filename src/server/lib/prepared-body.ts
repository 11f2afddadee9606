import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, deflateRaw, gzip } from 'node:zlib';

/**
 * A response body made once and served many times: the JSON serialised once, a strong ETag of its
 * bytes, and its gzip and brotli forms compressed once (in libuv's thread pool, on first demand)
 * instead of on every request. Read-mostly lists (the catalogue) keep these in a PreparedCache.
 */
export interface PreparedBody {
  /** The uncompressed bytes (UTF-8 JSON). */
  readonly bytes: Bytes;
  readonly contentType: string;
  /** The hash of `bytes` (base64url): equal bytes, equal hash. */
  readonly hash: string;
  /** The body in an encoding, compressed once and kept. */
  encoded(encoding: CompressedEncoding): Promise<Bytes>;
  /** The body in an encoding if it is already made (no waiting), else undefined. */
  encodedNow(encoding: CompressedEncoding): Bytes | undefined;
}

/** Bytes as a Response takes them. */
export type Bytes = Uint8Array<ArrayBuffer>;

export type CompressedEncoding = 'br' | 'gzip';
export type BodyEncoding = CompressedEncoding | 'identity';

/** Below this size compressing saves too little to be worth a header. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const deflateRawAsync = promisify(deflateRaw);

export function prepareJson(value: unknown): PreparedBody {
  const bytes: Bytes = new TextEncoder().encode(JSON.stringify(value));
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
  const forms = new Map<CompressedEncoding, Promise<Bytes>>();
  const made = new Map<CompressedEncoding, Bytes>();
  return {
    bytes,
    contentType: 'application/json',
    hash,
    encoded(encoding) {
      let form: Promise<Bytes> | undefined = forms.get(encoding);
      if (!form) {
        form = compress(bytes, encoding);
        // A failure is not kept: the next request tries again.
        form.then(
          (done) => made.set(encoding, done),
          () => forms.delete(encoding),
        );
        forms.set(encoding, form);
      }
      return form;
    },
    encodedNow(encoding) {
      return made.get(encoding);
    },
  };
}

/**
 * `bytes` compressed with the settings every prepared body uses (brotli 9 in text mode, gzip 9), in
 * libuv's thread pool. `open`: the stream is flushed to a byte boundary but not ended (brotli
 * without its last meta-block; for gzip, raw deflate without header, final block or trailer), so
 * the caller can append blocks of its own and end it (prepared-page.ts).
 */
export async function compress(bytes: Bytes, encoding: CompressedEncoding, open = false): Promise<Bytes> {
  const buffer =
    encoding === 'br'
      ? await brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 9,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
          ...(open ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {}),
        })
      : open
        ? await deflateRawAsync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })
        : await gzipAsync(bytes, { level: 9 });
  // Copied once into a plain ArrayBuffer (zlib's Buffers may share a pool).
  return new Uint8Array(buffer);
}

/**
 * The strong ETag of one representation: each encoding has its own bytes, so its own tag (the
 * hash of the JSON with a suffix, as Apache does), and a client holding any of them revalidates.
 */
export function etagOf(body: PreparedBody, encoding: BodyEncoding): string {
  return encoding === 'identity' ? `"${body.hash}"` : `"${body.hash}-${encoding}"`;
}

/** Whether If-None-Match names any representation of this body (weak comparison, RFC 9110 13.1.2). */
export function matchesIfNoneMatch(header: string | undefined, body: PreparedBody): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const prefix = `"${body.hash}`;
  for (const raw of header.split(',')) {
    let tag = raw.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (!tag.startsWith(prefix)) continue;
    const rest = tag.slice(prefix.length);
    if (rest === '"' || rest === '-br"' || rest === '-gzip"') return true;
  }
  return false;
}

/** Each coding an Accept-Encoding header names, and whether it is accepted (q > 0). */
function acceptedCodings(acceptEncoding: string): Map<string, boolean> {
  const accepted = new Map<string, boolean>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim().toLowerCase(), q === undefined || Number(q.slice(2)) > 0);
  }
  return accepted;
}

/** Whether an Accept-Encoding header accepts `encoding` (by name or by `*`). */
export function acceptsEncoding(acceptEncoding: string | undefined, encoding: CompressedEncoding): boolean {
  if (!acceptEncoding) return false;
  const accepted = acceptedCodings(acceptEncoding);
  const star = accepted.get('*') ?? false;
  if (encoding === 'br') return accepted.get('br') ?? star;
  return accepted.get('gzip') ?? accepted.get('x-gzip') ?? star;
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined, size: number): BodyEncoding {
  if (!acceptEncoding || size < COMPRESS_MIN_BYTES) return 'identity';
  if (acceptsEncoding(acceptEncoding, 'br')) return 'br';
  if (acceptsEncoding(acceptEncoding, 'gzip')) return 'gzip';
  return 'identity';
}

/**
 * Prepared bodies by key: least recently used ones leave first (a crawler varying query strings
 * cannot grow it past `maxEntries`); `invalidate` drops everything at once and makes any load
 * still running unkeepable; an entry older than `maxAgeMs` is rebuilt in the background while it
 * is still served (a backstop bounding staleness should a change notice ever be lost), and one
 * older than `maxServeMs` is not served at all (loaded again, as a miss). Loads in flight are
 * shared: a hundred requests for a cold key make one load. Bodies are PreparedBody by default;
 * anything with a hash of its bytes fits (the pages' PreparedPage).
 */
interface Entry<T> {
  body: Promise<T>;
  /** The body once loaded (for peek). */
  loaded?: T;
  builtAt: number;
  refreshing: boolean;
}

export class PreparedCache<T extends { readonly hash: string } = PreparedBody> {
  readonly #entries = new Map<string, Entry<T>>();
  #generation = 0;
  /** The key last moved to the end of #entries. */
  #newest: string | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxServeMs = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** Whether `key` is cached (used by tests; does not touch its recency). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
    this.#newest = undefined;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.#use(key, load);
    return entry ? entry.body : this.#store(key, load());
  }

  /**
   * The body for `key` if it is cached, loaded and still servable, without waiting (a hit as `get`
   * counts it: recency, background refresh); undefined otherwise (the caller takes the `get` path).
   */
  peek(key: string, load: () => Promise<T>): T | undefined {
    return this.#use(key, load)?.loaded;
  }

  #use(key: string, load: () => Promise<T>): Entry<T> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.builtAt;
    if (age > this.maxServeMs) return undefined;
    // Most recently used goes last (a Map iterates in insertion order); a run of hits on one key moves it once.
    if (this.#newest !== key) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    if (!entry.refreshing && age > this.maxAgeMs) this.#refresh(key, entry, load);
    return entry;
  }

  #store(key: string, body: Promise<T>): Promise<T> {
    const generation = this.#generation;
    const entry: Entry<T> = { body, builtAt: this.now(), refreshing: false };
    // Deleted first: a replaced entry goes last (most recently used).
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#newest = key;
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    body.then(
      (loaded) => {
        entry.loaded = loaded;
        // Loaded across an invalidation: it may hold what the change replaced.
        if (generation !== this.#generation && this.#entries.get(key) === entry) this.#entries.delete(key);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return body;
  }

  #refresh(key: string, entry: Entry<T>, load: () => Promise<T>) {
    entry.refreshing = true;
    const generation = this.#generation;
    void Promise.all([entry.body, load()]).then(
      ([previous, fresh]) => {
        if (generation !== this.#generation || this.#entries.get(key) !== entry) return;
        // Unchanged bytes keep the body already made (and its compressed forms).
        const body = fresh.hash === previous.hash ? previous : fresh;
        this.#entries.set(key, {
          body: Promise.resolve(body),
          loaded: body,
          builtAt: this.now(),
          refreshing: false,
        });
      },
      () => {
        // The old body stays until a refresh succeeds or the entry is dropped.
        entry.refreshing = false;
      },
    );
  }
}
